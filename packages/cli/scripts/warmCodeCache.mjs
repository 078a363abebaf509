/**
 * Writes the V8 code cache of dist/eval-script.js after `proctor eval` has run in this process (build.mjs runs this
 * script, in a process of its own). A cache made when the script has only loaded holds what loading compiled; every
 * function a run then calls was compiled again at its first call, in every run. Two evals run here first, on
 * loopback: a zero-work task app, and one whose rollouts ask a chat model through proctor's interceptor. The cache is
 * written under the flags a new process starts with, or V8 would refuse it there (build.mjs checks that it does not).
 *
 * `node scripts/warmCodeCache.mjs` (after the bundles are built); it prints nothing unless something fails.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chatCompletionsUrl } from "@proctor/core"

const dist = new URL("../dist/", import.meta.url)
const evalScriptUrl = new URL("eval-script.js", dist)
// The modules the program script itself imports (dist/lazy/), so this process shares their state with it.
const { codeCacheOf, loadScript, loadedScript } = await import(new URL("lazy/loadScript.js", dist).href)
// V8's flags are the process's: any copy of this module resets them.
const { untuneV8ForRuns } = await import(new URL("internal/tuneV8ForRuns.js", dist).href)

const json = (res, status, body) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

const readJson = async (req) => {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return JSON.parse(Buffer.concat(chunks).toString("utf8"))
}

/** Serves `handle(request body)` for POST `path` on 127.0.0.1 and `/health`; resolves with its origin and server. */
const serve = async (path, handle) => {
  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url.startsWith(path)) {
      readJson(req)
        .then(handle)
        .then(
          (answer) => json(res, 200, answer),
          (error) => json(res, 500, { detail: String(error) }),
        )
      return
    }
    req.resume()
    if (req.url === "/health") json(res, 200, { healthy: true })
    else json(res, 404, { detail: "not found" })
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, origin: `http://127.0.0.1:${server.address().port}` }
}

const model = await serve("/v1/chat/completions", (request) => ({
  id: "chatcmpl-warm",
  object: "chat.completion",
  created: 0,
  model: request.model,
  choices: [{ index: 0, message: { role: "assistant", content: "1" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
}))

const taskApp = await serve("/rollout", async (request) => {
  const seed = request.env?.seed ?? 0
  const inferenceUrl = request.policy?.config?.inference_url
  if (typeof inferenceUrl === "string") {
    const answer = await fetch(chatCompletionsUrl(inferenceUrl), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: request.policy.config.model, messages: [{ role: "user", content: "1?" }] }),
    })
    if (!answer.ok) throw new Error(`the model answered ${answer.status}`)
    await answer.json()
  }
  const score = seed % 2
  return {
    run_id: request.run_id,
    trace_correlation_id: request.run_id,
    trajectories: [],
    metrics: { episode_returns: [score], mean_return: score, num_steps: 1, num_episodes: 1, outcome_score: score },
    aborted: false,
  }
})

const work = mkdtempSync(join(tmpdir(), "proctor-warm-cache-"))
/** What the evals print: not the build's output, but shown when one fails. */
let printed = ""
const keep = (chunk) => {
  printed += String(chunk)
  return true
}
const realStdout = process.stdout.write.bind(process.stdout)
const realStderr = process.stderr.write.bind(process.stderr)
try {
  const { main } = loadScript(new URL("program-script.js", dist)).exports
  const intercepted = ["--model", "warm", "--inference-url", `${model.origin}/v1`]
  const runs = [
    ["eval", "--url", taskApp.origin, "--seeds", "0-1999", "--concurrency", "32", "--no-intercept"],
    ["eval", "--url", taskApp.origin, "--seeds", "0-299", "--concurrency", "16", ...intercepted],
  ]
  for (const [index, argv] of runs.entries()) {
    printed = ""
    process.stdout.write = keep
    process.stderr.write = keep
    const code = await main([...argv, "--run-dir", join(work, `run-${index}`), "--json"])
    process.stdout.write = realStdout
    process.stderr.write = realStderr
    if (code !== 0) throw new Error(`proctor ${argv.join(" ")} exited with ${code}:\n${printed.slice(-2000)}`)
  }
  const evalScript = loadedScript(evalScriptUrl)
  if (evalScript === undefined) throw new Error("the eval did not load dist/eval-script.js")
  untuneV8ForRuns()
  writeFileSync(codeCacheOf(evalScriptUrl), evalScript.script.createCachedData())
} finally {
  process.stdout.write = realStdout
  process.stderr.write = realStderr
  model.server.closeAllConnections()
  model.server.close()
  taskApp.server.closeAllConnections()
  taskApp.server.close()
  rmSync(work, { recursive: true, force: true })
}
