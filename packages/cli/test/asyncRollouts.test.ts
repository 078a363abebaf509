import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createTaskApp, type RunningTaskApp } from "@proctor/task-app"
import { waitFor } from "@proctor/test-kit"
import { cleanEnv, ensureBuilt, killStrayClis, nonEmptyLines, runCli, startCli } from "./fixtures/harness.js"

const KEY = "sk-async-test-key"
const NO_MODEL = "--no-intercept"

let tmp: string
const closers: Array<() => Promise<void>> = []

beforeAll(() => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-async-"))
}, 300_000)

afterAll(async () => {
  killStrayClis()
  for (const close of closers.reverse()) await close()
  rmSync(tmp, { recursive: true, force: true })
})

interface Gate {
  readonly promise: Promise<void>
  readonly open: () => void
}

const gate = (): Gate => {
  let open!: () => void
  const promise = new Promise<void>((resolve) => {
    open = resolve
  })
  return { promise, open }
}

/**
 * A real SDK task app in the async form, in this process (so it outlives a killed CLI): each seed's rollout waits
 * for its gate, then scores `seed / 10`. It records every handler run, every poll and every aborted rollout.
 */
const startGatedApp = async () => {
  const gates = new Map<number, Gate>()
  const gateOf = (seed: number) => {
    const existing = gates.get(seed)
    if (existing !== undefined) return existing
    const created = gate()
    gates.set(seed, created)
    return created
  }
  const runs: Array<number> = []
  const aborted: Array<number> = []
  let polls = 0
  const taskApp = createTaskApp({
    appId: "longrun",
    name: "Long rollouts",
    taskset: {},
    apiKey: KEY,
    rolloutMode: "async",
    rollout: async (request, { signal }) => {
      const seed = request.env.seed ?? 0
      runs.push(seed)
      signal.addEventListener("abort", () => aborted.push(seed))
      await gateOf(seed).promise
      return { score: seed / 10 }
    },
  })
  taskApp.app.addHook("onRequest", async (request) => {
    if (request.method === "GET" && request.url.startsWith("/rollouts/")) polls++
  })
  const running: RunningTaskApp = await taskApp.listen()
  closers.push(running.close)
  return { url: running.url, gateOf, runs, aborted, polls: () => polls }
}

const holdLines = (runDir: string) =>
  nonEmptyLines(join(runDir, "async_rollouts.jsonl"))
    .map((line) => JSON.parse(line) as { op: string; seed: number })
    .filter((line) => line.op === "hold")

const resultRows = (runDir: string) =>
  nonEmptyLines(join(runDir, "results.jsonl")).map(
    (line) => JSON.parse(line) as { seed: number; status: string; score: number | null; error_kind: string | null },
  )

describe("task apps in the async form, through the CLI", () => {
  it("a run killed with SIGKILL while polling re-attaches on resume: no rollout runs twice", async () => {
    const app = await startGatedApp()
    const runDir = join(tmp, "killed")
    const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY })
    const args = ["--url", app.url, "--seeds", "0-7", "--concurrency", "8", "--run-dir", runDir, NO_MODEL]
    const cli = startCli(["eval", "longrun", ...args], { env })
    await waitFor("8 rollouts accepted and journaled", () => holdLines(runDir).length === 8, {
      abortIf: () => (cli.child.exitCode === null ? undefined : `the CLI exited: ${cli.stderr()}`),
    })
    cli.child.kill("SIGKILL")
    expect((await cli.done).signal).toBe("SIGKILL")

    // Half finish while no proctor is watching; the rest after the resume has re-attached.
    for (const seed of [0, 1, 2, 3]) app.gateOf(seed).open()
    const pollsBefore = app.polls()
    const resumed = startCli(["eval", "--resume", runDir], { env })
    await waitFor("the resumed run to poll", () => app.polls() > pollsBefore + 4)
    for (const seed of [4, 5, 6, 7]) app.gateOf(seed).open()
    const done = await resumed.done
    expect(done.code, done.stderr).toBe(0)

    const rows = resultRows(runDir)
    expect(rows.map((row) => row.seed).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(rows.every((row) => row.status === "ok")).toBe(true)
    expect(rows.map((row) => [row.seed, row.score])).toEqual(
      expect.arrayContaining([0, 1, 2, 3, 4, 5, 6, 7].map((seed) => [seed, seed / 10])),
    )
    // Each rollout ran once in the app: the resume polled the ones it held instead of starting them over.
    expect([...app.runs].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(holdLines(runDir)).toHaveLength(8)
  }, 120_000)

  it("a rollout past its timeout is terminated in the app, and recorded as a timeout", async () => {
    const app = await startGatedApp()
    const runDir = join(tmp, "timeout")
    const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY })
    const result = await runCli(
      [
        "eval",
        "longrun",
        "--url",
        app.url,
        "--seeds",
        "3",
        "--timeout",
        "2",
        "--max-retries",
        "0",
        "--run-dir",
        runDir,
        NO_MODEL,
      ],
      { env },
    )
    expect(result.stderr).not.toMatch(/^\s+at\s/m)
    const [row] = resultRows(runDir)
    expect(row).toMatchObject({ seed: 3, status: "error", error_kind: "timeout" })
    // The app was asked to stop the rollout: its handler's signal was aborted.
    await waitFor("the app to abort the rollout", () => app.aborted.includes(3))
    expect(app.runs).toEqual([3])
  }, 60_000)
})
