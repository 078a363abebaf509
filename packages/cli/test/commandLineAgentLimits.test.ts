import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { agentRunFixture, resultRows } from "./fixtures/agentRuns.js"
import { cleanEnv, nonEmptyLines, runCli } from "./fixtures/harness.js"

/**
 * The real Codex CLI and Claude Code under the rollout's limits, which the interceptor holds: a turn is a model call,
 * and the call past `max_turns` (or over `max_tokens`) gets the API's own error answer, so the agent ends and the
 * rollout is a graded result with that stop reason. Their own output is kept in `agent_trajectory.jsonl` and becomes
 * the rollout's steps while they work.
 */

const TASK_TOML = `version = "1.0"
[verifier]
timeout_sec = 30.0
[agent]
timeout_sec = 120.0
[environment]
docker_image = "proctor-debian"
build_timeout_sec = 120.0
`

const TEST_SH = [
  "#!/bin/sh",
  'reward="$SANDBOX_ROOT/logs/verifier/reward.txt"',
  'if [ -e "$SANDBOX_ROOT/app/greeting.txt" ]; then echo 1 > "$reward"; else echo 0 > "$reward"; fi',
  "",
].join("\n")

/**
 * `wander` has no hint, so the baseline model looks around (`ls -la`) until a limit stops it; `slow-greeting`'s first
 * hint keeps the agent busy for a few seconds, so steps stored before its exit are told apart from steps read after.
 */
const TASKS = {
  wander: "Look around the working directory.\n",
  "slow-greeting": "Write a greeting.\n\nHint: `sleep 3`\n\nHint: `printf 'hi\\n' > greeting.txt`\n",
}

const shared = agentRunFixture("cli-agent-limits", (tmp) => {
  for (const [name, instruction] of Object.entries(TASKS)) {
    const dir = join(tmp, "tasks", name)
    mkdirSync(join(dir, "tests"), { recursive: true })
    writeFileSync(join(dir, "task.toml"), TASK_TOML)
    writeFileSync(join(dir, "instruction.md"), instruction)
    writeFileSync(join(dir, "tests", "test.sh"), TEST_SH)
  }
})

interface Row {
  readonly task_id: string
  readonly score: number | null
  readonly stop_reason?: string
  readonly turns?: number
  readonly error: string | null
}

interface Call {
  readonly outcome: string
  readonly status: number | null
  readonly error: string | null
}

interface Step {
  readonly kind: string
  readonly elapsed_ms: number
  readonly text?: string
  readonly tool_calls?: ReadonlyArray<{ readonly arguments: string }>
  readonly command?: string
}

/** `proctor eval` of one task with one agent in bwrap on the baseline model; its one result row. */
const evalTask = async (runDir: string, agent: string, seed: number, extra: ReadonlyArray<string>) => {
  const result = await runCli(
    [
      "eval",
      "--agent",
      agent,
      "--sandbox",
      "bwrap",
      "--tasks",
      join(shared.tmp, "tasks"),
      "--seeds",
      String(seed),
      "--model",
      "baseline",
      "--inference-url",
      shared.model.url,
      "--max-retries",
      "0",
      "--run-dir",
      runDir,
      ...extra,
    ],
    { env: cleanEnv() },
  )
  expect(result.code, result.stderr).toBe(0)
  const [row] = resultRows<Row>(runDir)
  return row
}

const jsonLines = <T>(path: string) => nonEmptyLines(path).map((line) => JSON.parse(line) as T)

/** Seeds are tasks in name order. */
const SLOW_GREETING = 0
const WANDER = 1

describe("command-line agents under the interceptor's limits", () => {
  for (const agent of ["codex", "claude-code"] as const) {
    it(`${agent}: the call past max_turns is refused, the rollout is graded with stop_reason max_turns`, async () => {
      const runDir = join(shared.tmp, `${agent}-turns`)
      const row = await evalTask(runDir, agent, WANDER, ["--max-turns", "3"])
      expect(row).toMatchObject({ task_id: "wander", score: 0, stop_reason: "max_turns", turns: 3, error: null })
      const calls = jsonLines<Call>(join(runDir, "model_calls.jsonl"))
      // Three turns answered, then the refused one in the API's own error shape.
      expect(calls.map((call) => call.outcome)).toEqual(["ok", "ok", "ok", "error"])
      expect(calls[3]?.status).toBe(400)
      expect(calls[3]?.error).toContain("proctor_limit max_turns")
    }, 180_000)

    it(`${agent}: the call over max_tokens is refused, the rollout is graded with stop_reason max_tokens`, async () => {
      const runDir = join(shared.tmp, `${agent}-tokens`)
      const row = await evalTask(runDir, agent, WANDER, ["--max-tokens", "1"])
      expect(row).toMatchObject({ task_id: "wander", score: 0, stop_reason: "max_tokens", error: null })
      const calls = jsonLines<Call>(join(runDir, "model_calls.jsonl"))
      expect(calls.at(-1)?.error).toContain("proctor_limit max_tokens")
    }, 180_000)

    it(`${agent}: its trajectory is kept next to the model calls, and its steps are stored while it works`, async () => {
      const runDir = join(shared.tmp, `${agent}-live`)
      const row = await evalTask(runDir, agent, SLOW_GREETING, [])
      expect(row).toMatchObject({ task_id: "slow-greeting", score: 1, stop_reason: "model_ended" })
      const events = jsonLines<{ rollout_id: string; agent: string; index: number; event: unknown }>(
        join(runDir, "agent_trajectory.jsonl"),
      )
      expect(events.length).toBeGreaterThan(2)
      expect(events.map((event) => event.index)).toEqual(events.map((_, index) => index))
      for (const event of events) expect(event.agent).toBe(agent)
      const steps = jsonLines<Step>(join(runDir, "steps.jsonl"))
      // The model's call of `sleep 3` is stored when it is made, seconds before the agent's program exits.
      const sleepCall = steps.find(
        (step) => step.kind === "model" && step.tool_calls?.some((call) => call.arguments.includes("sleep 3")),
      )
      const exited = steps.find((step) => step.kind === "note" && step.text?.startsWith(`${agent} exited`))
      expect(sleepCall).toBeDefined()
      expect(exited).toBeDefined()
      expect((exited?.elapsed_ms ?? 0) - (sleepCall?.elapsed_ms ?? 0)).toBeGreaterThan(2_500)
    }, 180_000)
  }
})
