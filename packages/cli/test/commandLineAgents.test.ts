import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { agentRunFixture, resultRows } from "./fixtures/agentRuns.js"
import { cleanEnv, nonEmptyLines, repoRoot, runCli } from "./fixtures/harness.js"

/**
 * The real Codex CLI and Claude Code (the npm packages, unmodified) carry out Harbor tasks inside proctor's sandboxes,
 * every model call through the interceptor to the baseline model, which answers the Responses API and Anthropic
 * messages with its scripted shell policy.
 */

/** The key the interceptor sends upstream: it must never be seen inside a sandbox. */
const REAL_KEY = "sk-proctor-secret-4242"

/**
 * A task whose hint makes the agent search its own sandbox (environment, every process's environment and command
 * line, the files it can write) for the real key. The pattern `…secre[t]…` matches the key but not itself, so neither
 * the instruction nor the searching grep's own command line holds the key.
 */
const KEY_PATTERN = REAL_KEY.replace("secret", "secre[t]")
const KEY_SEARCH_TASK = {
  instruction: [
    "Count how often the interceptor's real key appears in this sandbox; write the count to `/app/found.txt`.",
    "",
    `Hint: \`{ env; cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline; grep -rsh "${KEY_PATTERN}" /app /logs /tmp "$HOME"; } 2>/dev/null | tr '\\0' '\\n' | grep -c "${KEY_PATTERN}" > /app/found.txt\``,
    "",
  ].join("\n"),
  test: [
    "#!/bin/sh",
    'reward="$SANDBOX_ROOT/logs/verifier/reward.txt"',
    'if [ "$(cat "$SANDBOX_ROOT/app/found.txt" 2>/dev/null)" = "0" ]; then echo 1 > "$reward"; else echo 0 > "$reward"; fi',
    "",
  ].join("\n"),
}

const TASK_TOML = `version = "1.0"
[verifier]
timeout_sec = 30.0
[agent]
timeout_sec = 120.0
[environment]
docker_image = "proctor-debian"
build_timeout_sec = 120.0
cpus = 1
memory_mb = 512
`

/** The example tasks the builtin agent solves and the key search, in an image with glibc (Claude Code needs it). */
const writeTasks = (tmp: string) => {
  const tasks = join(tmp, "tasks")
  for (const name of ["hello-file", "sum-numbers"]) {
    cpSync(join(repoRoot, "examples/tasks", name), join(tasks, name), { recursive: true })
    writeFileSync(join(tasks, name, "task.toml"), TASK_TOML)
  }
  const search = join(tasks, "key-search")
  mkdirSync(join(search, "tests"), { recursive: true })
  writeFileSync(join(search, "task.toml"), TASK_TOML)
  writeFileSync(join(search, "instruction.md"), KEY_SEARCH_TASK.instruction)
  writeFileSync(join(search, "tests", "test.sh"), KEY_SEARCH_TASK.test)
}

const shared = agentRunFixture("cli-agents", writeTasks)
const tasksDir = () => join(shared.tmp, "tasks")

interface Row {
  readonly task_id: string
  readonly score: number | null
  readonly stop_reason?: string
  readonly error: string | null
  readonly tokens: number | null
  readonly cost_usd: number | null
}

interface Call {
  readonly api: string
  readonly stream: boolean
  readonly usage: { readonly prompt_tokens: number | null; readonly completion_tokens: number | null } | null
  readonly cost_usd: number | null
}

const API = { codex: "responses", "claude-code": "messages" } as const

/** `proctor eval --tasks` on the baseline model with the real key upstream; each task's score, stop reason, error. */
const evalTasks = async (runDir: string, args: ReadonlyArray<string>) => {
  const result = await runCli(
    [
      "eval",
      ...args,
      "--tasks",
      tasksDir(),
      "--model",
      "baseline",
      "--inference-url",
      shared.model.url,
      "--max-retries",
      "0",
      "--run-dir",
      runDir,
    ],
    { env: cleanEnv({ PROCTOR_UPSTREAM_API_KEY: REAL_KEY }) },
  )
  expect(result.code, result.stderr).toBe(0)
  const rows = resultRows<Row>(runDir)
  return Object.fromEntries(rows.map((row) => [row.task_id, [row.score, row.stop_reason ?? null, row.error]]))
}

const ALL_SOLVED = {
  "hello-file": [1, "model_ended", null],
  "key-search": [1, "model_ended", null],
  "sum-numbers": [1, "model_ended", null],
}

describe("command-line agents in sandboxes, on the baseline model", () => {
  for (const sandbox of ["bwrap", "docker"] as const) {
    for (const agent of ["codex", "claude-code"] as const) {
      it(`${agent} in ${sandbox}: solves the tasks, every call traced and priced, no key inside`, async () => {
        const runDir = join(shared.tmp, `${agent}-${sandbox}`)
        const pricing = join(repoRoot, "examples/baseline-model/pricing.json")
        expect(await evalTasks(runDir, ["--agent", agent, "--sandbox", sandbox, "--pricing", pricing])).toEqual(
          ALL_SOLVED,
        )
        // One hint per task, then the closing answer: two calls each, all of the agent's API, streamed and priced.
        const calls = nonEmptyLines(join(runDir, "model_calls.jsonl")).map((line) => JSON.parse(line) as Call)
        expect(calls).toHaveLength(6)
        for (const call of calls) {
          expect(call).toMatchObject({ api: API[agent], stream: true })
          expect(call.usage?.prompt_tokens).toBeGreaterThan(0)
          expect(call.usage?.completion_tokens).toBeGreaterThan(0)
          expect(call.cost_usd).toBeGreaterThan(0)
        }
        for (const row of resultRows<Row>(runDir)) expect(row.cost_usd).toBeGreaterThan(0)
        // The agent's own trajectory is the rollout's timeline: its commands and the model's turns.
        const steps = nonEmptyLines(join(runDir, "steps.jsonl")).map(
          (line) => JSON.parse(line) as { kind: string; command?: string },
        )
        expect(steps.filter((step) => step.kind === "model").length).toBeGreaterThanOrEqual(6)
        expect(steps.some((step) => step.kind === "command" && step.command?.includes("greeting.txt"))).toBe(true)
        // Nothing proctor writes holds the real key either.
        for (const file of ["results.jsonl", "model_calls.jsonl", "steps.jsonl"]) {
          expect(readFileSync(join(runDir, file), "utf8")).not.toContain(REAL_KEY)
        }
      }, 300_000)
    }
  }

  it("an agent declared in agent_config (a small chat-completions loop in node) runs in bwrap on the interceptor", async () => {
    const dir = join(shared.tmp, "declared")
    mkdirSync(dir)
    const script = join(dir, "agent.mjs")
    writeFileSync(script, DECLARED_AGENT)
    const config = join(dir, "eval.toml")
    writeFileSync(
      config,
      [
        "[eval]",
        'agent = "tiny"',
        "[eval.agent_config]",
        `run = 'node ${script}'`,
        `paths = ["${dir}"]`,
        'env = { OPENAI_BASE_URL = "{base_url}", OPENAI_API_KEY = "{api_key}" }',
        "",
      ].join("\n"),
    )
    const runDir = join(dir, "run")
    expect(await evalTasks(runDir, ["--config", config, "--sandbox", "bwrap"])).toEqual(ALL_SOLVED)
    // A hint and `done` per task, through the interceptor.
    const calls = nonEmptyLines(join(runDir, "model_calls.jsonl")).map((line) => JSON.parse(line) as Call)
    expect(calls.map((call) => call.api)).toEqual(Array(6).fill("chat_completions"))
  }, 300_000)
})

/** The declared agent of the last test: the builtin agent's loop in a dozen lines, told where the model is by env. */
const DECLARED_AGENT = `
import { execSync } from "node:child_process"
const tool = (name, properties) => ({ type: "function", function: { name, parameters: { type: "object", properties } } })
const tools = [tool("bash", { command: { type: "string" } }), tool("done", {})]
const messages = [{ role: "user", content: process.env.PROCTOR_INSTRUCTION }]
for (let turn = 0; turn < 10; turn++) {
  const response = await fetch(process.env.OPENAI_BASE_URL + "/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer " + process.env.OPENAI_API_KEY },
    body: JSON.stringify({ model: process.env.PROCTOR_MODEL, messages, tools }),
  })
  const message = (await response.json()).choices[0].message
  messages.push(message)
  const calls = message.tool_calls ?? []
  if (calls.length === 0 || calls.some((call) => call.function.name === "done")) break
  for (const call of calls) {
    let output
    try { output = execSync(JSON.parse(call.function.arguments).command, { encoding: "utf8", shell: "/bin/sh" }) }
    catch (error) { output = String(error) }
    messages.push({ role: "tool", tool_call_id: call.id, content: output })
  }
}
`
