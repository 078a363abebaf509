// Wall time of `proctor eval` with OTLP export to a collector that is down (a closed port), against the same
// run without export: the math example on the baseline model answering 20 ms late, whole processes (spawn to
// exit), alternating rounds, medians. Target: ≤ 1.05×. Prints its figures; writes nothing (RESULTS.md is left
// alone). Needs a build (`npx -y pnpm@10 exec turbo run build`).
//   node bench/otlp/collectorDown.mjs [--seeds 1000] [--concurrency 32] [--rounds 5]
import { spawn } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

const { values } = parseArgs({
  options: {
    seeds: { type: "string", default: "1000" },
    concurrency: { type: "string", default: "32" },
    rounds: { type: "string", default: "5" },
  },
})
const repo = fileURLToPath(new URL("../../", import.meta.url))
const cli = join(repo, "packages/cli/dist/bin.cjs")
const env = { ...process.env, NO_COLOR: "1", ENVIRONMENT_API_KEY: "bench-otlp" }
for (const name of Object.keys(env)) if (name.startsWith("OTEL_")) delete env[name]

const children = []
const startExample = (script, extra) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repo, script)], {
      env: { ...env, ...extra },
      stdio: ["ignore", "pipe", "inherit"],
    })
    children.push(child)
    let out = ""
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      out += chunk
      const match = /listening on (http\S+)/.exec(out)
      if (match) resolve(match[1])
    })
    child.once("exit", (code) => reject(new Error(`${script} exited (${code})`)))
  })

const closedPort = async () => {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

const model = await startExample("examples/baseline-model/dist/main.js", { BASELINE_LATENCY_MS: "20" })
const math = await startExample("examples/math/dist/main.js", {})
const dir = mkdtempSync(join(tmpdir(), "proctor-bench-otlp-"))
const config = join(dir, "eval.toml")
writeFileSync(config, `[eval]\nmodel = "baseline"\n[eval.policy_config]\ninference_url = "${model}"\n`)

let run = 0
const timedEval = (extra) =>
  new Promise((resolve, reject) => {
    const args = ["eval", "math", "--config", config, "--url", math, "--seeds", `0-${Number(values.seeds) - 1}`]
      .concat(["--concurrency", values.concurrency, "--run-dir", join(dir, `run-${run++}`), "--json"])
      .concat(extra)
    const started = process.hrtime.bigint()
    // GNU time's CPU figure (user + system) is less at the mercy of the machine's other load than wall time.
    const child = spawn("/usr/bin/time", ["-f", "cpu %U %S", process.execPath, cli, ...args], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    })
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk
    })
    child.once("exit", (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      if (code !== 0) reject(new Error(`proctor eval exited ${code}: ${stderr}`))
      const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(stderr)
      resolve({
        seconds,
        cpu: cpu === null ? Number.NaN : Number(cpu[1]) + Number(cpu[2]),
        otlp: stderr.split("\n").find((l) => l.startsWith("otlp:")) ?? "",
      })
    })
  })

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

try {
  await timedEval([]) // warm-up: file caches, the task app's and the model's first connections
  const without = []
  const down = []
  const withoutCpu = []
  const downCpu = []
  let line = ""
  for (let round = 0; round < Number(values.rounds); round++) {
    const port = await closedPort()
    // Alternate which goes first, so a drift in the machine's load falls on both.
    const pair = round % 2 === 0 ? ["without", "down"] : ["down", "without"]
    for (const which of pair) {
      if (which === "without") {
        const result = await timedEval([])
        without.push(result.seconds)
        withoutCpu.push(result.cpu)
      } else {
        const result = await timedEval(["--otlp-endpoint", `http://127.0.0.1:${port}`])
        down.push(result.seconds)
        downCpu.push(result.cpu)
        line = result.otlp
      }
    }
    console.log(
      `round ${round + 1}: without ${without.at(-1).toFixed(2)} s (cpu ${withoutCpu.at(-1).toFixed(2)} s) · collector down ${down.at(-1).toFixed(2)} s (cpu ${downCpu.at(-1).toFixed(2)} s)`,
    )
  }
  const ratio = median(down) / median(without)
  console.log(`last run said: ${line}`)
  console.log(
    `${values.seeds} seeds, concurrency ${values.concurrency}, ${values.rounds} rounds (shared machine, load average ${loadavg()[0].toFixed(1)}):`,
  )
  console.log(
    `wall: median without export ${median(without).toFixed(2)} s · collector down ${median(down).toFixed(2)} s · ratio ${ratio.toFixed(3)}× (target ≤ 1.05×)`,
  )
  console.log(
    `cpu:  median without export ${median(withoutCpu).toFixed(2)} s · collector down ${median(downCpu).toFixed(2)} s · ratio ${(median(downCpu) / median(withoutCpu)).toFixed(3)}×`,
  )
} finally {
  for (const child of children) child.kill("SIGTERM")
}
