import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { testResult as result, waitFor, writeRun } from "@proctor/test-kit"
import { Effect, Exit, Scope } from "effect"
import {
  cleanEnv,
  ensureBuilt,
  killStrayClis,
  runCli,
  startCli,
  startZeroTaskApp,
  type TestTaskApp,
} from "./fixtures/harness.js"

const STACK_FRAME = /^\s+at\s/m
const TASK_APP_KEY = "view-task-app-key"

let tmp: string
let app: TestTaskApp
const scope = Effect.runSync(Scope.make())

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-view-"))
  app = await startZeroTaskApp({ apiKey: TASK_APP_KEY, score: (seed) => (seed % 2 === 0 ? 1 : 0) })
}, 300_000)

afterAll(async () => {
  killStrayClis()
  await app.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(tmp, { recursive: true, force: true })
})

/** A run directory written by core's own writer; it stays open for appends until the tests end. */
const runDir = (name: string, seeds: ReadonlyArray<number>) =>
  Effect.runPromise(Scope.extend(writeRun(join(mkdtempSync(join(tmp, "d-")), name), seeds), scope))

const urlIn = (text: string, prefix: string) => new RegExp(`${prefix}(http://127\\.0\\.0\\.1:\\d+/)`).exec(text)?.[1]

const getJson = async (url: string) => {
  const response = await fetch(url)
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** Polls `check` every 20 ms until it holds, for up to 15 s. */
const rowsOf = async (url: string) =>
  ((await getJson(`${url}api/runs/0/rows`)).body.rows as Array<{ seed: number }>).map((r) => r.seed)

describe("proctor view", () => {
  it("serves run directories on loopback, follows one still being written, and stops cleanly on Ctrl-C", async () => {
    const first = await runDir("run", [0, 1, 2])
    const second = await runDir("run", [0])
    await Effect.runPromise(first.add(result({ seed: 0, score: 1 }), 2))
    await Effect.runPromise(second.add(result({ seed: 0, score: 0 })))
    const view = startCli(["view", first.dir, second.dir])
    await waitFor("the viewer's URL", () => urlIn(view.stdout(), "proctor view: ") !== undefined)
    const url = urlIn(view.stdout(), "proctor view: ")!
    expect(view.stdout()).toBe(`proctor view: ${url} (Ctrl-C to stop)\n`)

    const page = await fetch(url)
    expect(await page.text()).toContain('<script id="proctor-config" type="application/json">')
    const { body } = await getJson(`${url}api/runs`)
    // Two directories named alike are told apart by the paths given.
    expect((body.runs as Array<{ name: string }>).map((r) => r.name)).toEqual([first.dir, second.dir])
    expect(await rowsOf(url)).toEqual([0])

    await Effect.runPromise(first.add(result({ seed: 2, score: 1 }), 1))
    await waitFor("the appended row", async () => (await rowsOf(url)).length === 2)
    expect(await rowsOf(url)).toEqual([0, 2])
    const rollout = await getJson(`${url}api/runs/0/rollouts/2/0`)
    expect(rollout.status).toBe(200)
    expect((rollout.body.calls as Array<unknown>).length).toBe(1)

    view.child.kill("SIGINT")
    const done = await view.done
    expect(done).toMatchObject({ code: 0, stderr: "" })
    expect(
      await fetch(url).then(
        () => "answered",
        () => "refused",
      ),
    ).toBe("refused")
  })

  it("refuses a bad port or a directory that is not a run's, with exit 2 and the argument named", async () => {
    const run = await runDir("ok", [0])
    const emptyFolder = mkdtempSync(join(tmp, "no-runs-"))
    const [badPort, notRun, none, noRuns] = await Promise.all([
      runCli(["view", run.dir, "--port", "70000"]),
      runCli(["view", run.dir, join(tmp, "no-such-run")]),
      runCli(["view"]),
      runCli(["view", emptyFolder]),
    ])
    expect(badPort).toMatchObject({ code: 2, stdout: "" })
    expect(badPort.stderr).toBe('proctor view: --port: expected an integer from 0 to 65535, got "70000"\n')
    expect(notRun.code).toBe(2)
    expect(notRun.stderr).toContain(join(tmp, "no-such-run"))
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("run_dir")
    // A folder is taken for a folder of runs; one without any is named, with why, in one line.
    expect(noRuns).toMatchObject({ code: 2, stdout: "" })
    expect(noRuns.stderr).toBe(
      `proctor view: ${emptyFolder} is neither a run directory (it has no config.json or results.jsonl) nor a folder of run directories\n`,
    )
    for (const r of [badPort, notRun, none, noRuns]) expect(r.stderr).not.toMatch(STACK_FRAME)
  })

  it("refuses a grid run directory beside other runs, and one whose grid.json is no grid's, in one line", async () => {
    const run = await runDir("ok", [0])
    const grid = mkdtempSync(join(tmp, "grid-"))
    writeFileSync(join(grid, "grid.json"), "{}")
    const [beside, corrupt] = await Promise.all([runCli(["view", run.dir, grid]), runCli(["view", grid])])
    expect(beside).toMatchObject({ code: 2, stdout: "" })
    expect(beside.stderr).toBe(
      `proctor view: ${grid} is a grid run directory: view it on its own (proctor view ${grid})\n`,
    )
    expect(corrupt).toMatchObject({ code: 2, stdout: "" })
    expect(corrupt.stderr).toBe(`proctor view: ${join(grid, "grid.json")} is not a grid manifest\n`)
  })

  it("--open on a machine without a browser says so and goes on serving", async () => {
    const run = await runDir("ok", [0])
    const view = startCli(["view", run.dir, "--open"], { env: cleanEnv({ PATH: join(tmp, "empty-path") }) })
    await waitFor("the browser failure", () => view.stderr().includes("could not open a browser"))
    const url = urlIn(view.stdout(), "proctor view: ")!
    expect(view.stderr()).toContain(`open ${url} yourself`)
    expect((await fetch(url)).status).toBe(200)
    view.child.kill("SIGINT")
    expect((await view.done).code).toBe(0)
  })
})

describe("proctor eval --view", () => {
  it("serves the run live: rows as they land, what is in flight; after the run it stays until Ctrl-C", async () => {
    const runDirectory = join(tmp, "live-run")
    app.holdAfter(app.served.length + 2)
    const env = cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY })
    const args = ["eval", "--url", app.url, "--seeds", "0-3", "--concurrency", "2", "--no-intercept"]
    const run = startCli([...args, "--run-dir", runDirectory, "--view"], { env })
    await waitFor("the viewer's URL", () => urlIn(run.stderr(), "viewer: ") !== undefined)
    const url = urlIn(run.stderr(), "viewer: ")!

    type Live = { progress: { planned: number; done: number }; inflight: Array<{ seed: number; state: string }> }
    // The rows come from results.jsonl and the live counts from the run's events, which follow the append.
    await waitFor("two rows counted, and two rollouts held in flight", async () => {
      const live = (await getJson(`${url}api/runs/0/live`)).body as unknown as Live
      return (await rowsOf(url)).length === 2 && live.progress?.done === 2 && (live.inflight ?? []).length === 2
    })
    const live = (await getJson(`${url}api/runs/0/live`)).body as unknown as Live
    expect(live.progress).toMatchObject({ planned: 4, done: 2 })
    expect(live.inflight.map((f) => f.state)).toEqual(["running", "running"])
    const during = (await getJson(`${url}api/runs`)).body.runs as Array<Record<string, unknown>>
    expect(during[0]).toMatchObject({ live: true, progress: { planned: 4, done: 2, inFlight: 2 } })

    app.open()
    await waitFor("the run's end", () => run.stderr().includes("the viewer stays at"))
    const after = (await getJson(`${url}api/runs`)).body.runs as Array<Record<string, unknown>>
    expect(after[0]).toMatchObject({ live: false, summary: { completed: 4, ok: 4, metrics: { mean_score: 0.5 } } })
    expect((await rowsOf(url)).sort()).toEqual([0, 1, 2, 3])
    expect(run.child.exitCode).toBeNull()

    run.child.kill("SIGINT")
    // The run's own exit code: valid results, no --fail-under.
    expect((await run.done).code).toBe(0)
    expect(
      await fetch(url).then(
        () => "answered",
        () => "refused",
      ),
    ).toBe("refused")
  })

  it("--view with --backend is refused: the job server has its own dashboard", async () => {
    const refused = await runCli([
      "eval",
      "--url",
      app.url,
      "--seeds",
      "0",
      "--backend",
      "http://127.0.0.1:9",
      "--view",
    ])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("--view")
    expect(refused.stderr).not.toMatch(STACK_FRAME)
  })
})
