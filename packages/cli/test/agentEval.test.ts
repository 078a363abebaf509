import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { agentRunFixture, resultRows } from "./fixtures/agentRuns.js"
import { nonEmptyLines, repoRoot, runCli } from "./fixtures/harness.js"

const TASKS = join(repoRoot, "examples/tasks")

const shared = agentRunFixture("agent-eval")

interface Row {
  readonly task_id: string
  readonly seed: number
  readonly score: number | null
  readonly stop_reason?: string
  readonly error_kind: string | null
  readonly run_id: string
}

const rowsOf = (runDir: string) => resultRows<Row>(runDir)

const byTask = (rows: ReadonlyArray<Row>) =>
  Object.fromEntries(rows.map((row) => [row.task_id, [row.score, row.stop_reason ?? null, row.error_kind]]))

/** `proctor eval` of the example tasks by `agent` in the local sandbox, into `runDir`. */
const evalTasks = (agent: string, runDir: string, ...flags: ReadonlyArray<string>) =>
  runCli(["eval", "--tasks", TASKS, "--agent", agent, "--sandbox", "local", ...flags, "--run-dir", runDir])

describe("proctor eval --tasks", () => {
  it("the oracle scores 1.0 on every example task; the run's first line names the runtime", async () => {
    const runDir = join(shared.tmp, "oracle")
    const result = await evalTasks("oracle", runDir)
    expect(result.stderr.split("\n")[0]).toBe(
      "sandbox: local — no isolation: the agent's commands run as this user on this machine",
    )
    expect(result.code).toBe(0)
    expect(byTask(rowsOf(runDir))).toEqual({
      "find-the-secret": [1, "model_ended", null],
      "hello-file": [1, "model_ended", null],
      "memory-hog": [1, "model_ended", null],
      "reverse-words": [1, "model_ended", null],
      "sum-numbers": [1, "model_ended", null],
    })
    // An oracle run calls no model: no line about one.
    expect(result.stderr).not.toMatch(/^model /m)
  })

  it("the builtin agent on the baseline model, through the interceptor: the expected mix", async () => {
    const runDir = join(shared.tmp, "builtin")
    const result = await evalTasks(
      "builtin",
      runDir,
      "--model",
      "baseline",
      "--inference-url",
      shared.model.url,
      "--max-turns",
      "4",
    )
    expect(result.code, result.stderr).toBe(0)
    expect(byTask(rowsOf(runDir))).toEqual({
      "find-the-secret": [0, "max_turns", null],
      "hello-file": [1, "model_ended", null],
      "memory-hog": [0, "model_ended", null],
      "reverse-words": [0, "model_ended", null],
      "sum-numbers": [1, "model_ended", null],
    })
    // Every turn's model call went through the interceptor: 2 + 2 + 2 + 4 + 2.
    expect(nonEmptyLines(join(runDir, "model_calls.jsonl"))).toHaveLength(12)
    // The terminal's table names each row by its task, with why the agent stopped and after how many turns.
    expect(result.stdout).toMatch(/^task +\| stop_reason +\| turns +\| score /m)
    expect(result.stdout).toMatch(/^find-the-secret +\| max_turns +\| 4 +\| 0 /m)
    expect(result.stdout).toMatch(/^hello-file +\| model_ended +\| 2 +\| 1 /m)
  })

  it("resumes an agent run: only the missing tasks run, each key once", async () => {
    const runDir = join(shared.tmp, "resume")
    const first = await evalTasks("oracle", runDir)
    expect(first.code).toBe(0)
    const journal = join(runDir, "results.jsonl")
    const kept = readFileSync(journal, "utf8").split("\n").slice(0, 2)
    writeFileSync(journal, `${kept.join("\n")}\n`)
    const resumed = await runCli(["eval", "--resume", runDir])
    expect(resumed.code, resumed.stderr).toBe(0)
    const rows = rowsOf(runDir)
    expect(rows.map((row) => row.seed).sort()).toEqual([0, 1, 2, 3, 4])
    expect(rows.slice(0, 2).map((row) => row.run_id)).toEqual(kept.map((line) => JSON.parse(line).run_id))
    expect(rows.every((row) => row.score === 1)).toBe(true)
  })

  it("a wrong task directory or agent is one line and exit 2", async () => {
    const noTasks = await runCli(["eval", "--tasks", shared.tmp, "--agent", "oracle", "--sandbox", "local"])
    expect(noTasks.code).toBe(2)
    expect(noTasks.stderr.trim()).toBe(
      `proctor eval: tasks: ${shared.tmp} holds no task directory (a directory with a task.toml)`,
    )
    const noAgent = await evalTasks("nobody", join(shared.tmp, "x"))
    expect(noAgent.code).toBe(2)
    expect(noAgent.stderr.trim()).toBe(
      'proctor eval: agent: expected one of oracle, builtin, codex, claude-code (or declare one in agent_config), got "nobody"',
    )
  })
})
