import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { AGENT_EVENTS_FILE, LiveRunState, type LiveRunView } from "@proctor/core"
import { freshDir, testResult as result, testStep, writeRun } from "@proctor/test-kit"
import { Deferred, Effect, Exit } from "effect"
import type { RolloutAgentEvents, RolloutSteps, RowsPage, RunHead } from "../src/api.js"
import { liveRunDirectoryRun, openRunDirectoryRun } from "../src/backend/runDirectoryRun.js"
import { runDirectoriesAt } from "../src/backend/runsFolder.js"
import { makeViewerApi } from "../src/backend/ViewerApi.js"

const folder = () => mkdtempSync(join(tmpdir(), "proctor-runs-"))

describe("a folder of runs", () => {
  it.scoped("stands for the run directories directly in it and a grid's variants, newest first, and nothing else", () =>
    Effect.gen(function* () {
      const runs = folder()
      yield* writeRun(join(runs, "b-oldest"), [0], 1, { createdAt: "2026-01-01T00:00:00.000Z" })
      yield* writeRun(join(runs, "a-newest"), [0], 1, { createdAt: "2026-03-01T00:00:00.000Z" })
      yield* writeRun(join(runs, "c-middle"), [0], 1, { createdAt: "2026-02-01T00:00:00.000Z" })
      mkdirSync(join(runs, "not-a-run"))
      writeFileSync(join(runs, "notes.txt"), "hello")
      expect(yield* runDirectoriesAt(runs)).toEqual(["a-newest", "c-middle", "b-oldest"].map((n) => join(runs, n)))
      // A run directory given as such is itself, not a folder of its runs' subdirectories.
      expect(yield* runDirectoriesAt(join(runs, "c-middle"))).toEqual([join(runs, "c-middle")])
      // A grid run in the folder stands for its variants, each a run directory.
      const grid = join(runs, "grid")
      yield* writeRun(join(grid, "variants", "m1"), [0], 1, { createdAt: "2026-04-01T00:00:00.000Z" })
      yield* writeRun(join(grid, "variants", "m2"), [0], 1, { createdAt: "2026-04-01T00:00:01.000Z" })
      writeFileSync(join(grid, "grid.json"), "{}")
      expect(yield* runDirectoriesAt(runs)).toEqual([
        join(grid, "variants", "m2"),
        join(grid, "variants", "m1"),
        ...["a-newest", "c-middle", "b-oldest"].map((n) => join(runs, n)),
      ])
    }),
  )

  it.effect("is refused with the reason when it holds no run, or is no directory", () =>
    Effect.gen(function* () {
      const empty = folder()
      const error = yield* Effect.flip(runDirectoriesAt(empty))
      expect(error.reason).toBe("NotFound")
      expect(error.message).toBe(
        `${empty} is neither a run directory (it has no config.json or results.jsonl) nor a folder of run directories`,
      )
      writeFileSync(join(empty, "file"), "")
      expect((yield* Effect.flip(runDirectoriesAt(join(empty, "file")))).message).toBe(
        `${join(empty, "file")} is not a directory`,
      )
    }),
  )

  it.scoped("gives each run's start to the viewer's heads", () =>
    Effect.gen(function* () {
      const run = yield* writeRun(freshDir(), [0], 1, { createdAt: "2026-02-03T04:05:06.000Z" })
      const api = makeViewerApi([yield* openRunDirectoryRun(run.dir)])
      const { runs } = (yield* api.get("runs", {})) as { runs: Array<RunHead> }
      expect(runs[0]!.started_at).toBe("2026-02-03T04:05:06.000Z")
    }),
  )
})

describe("a run's agent output", () => {
  it.scoped(
    "is served by rollout from agent_trajectory.jsonl, a line being written skipped, none for other rollouts",
    () =>
      Effect.gen(function* () {
        const run = yield* writeRun(freshDir(), [0, 1])
        const line = (seed: number, index: number) =>
          JSON.stringify({
            rollout_id: `r-${seed}`,
            seed,
            attempt: 0,
            retry: 0,
            index,
            at: "2026-01-01T00:00:00.000Z",
            agent: "codex",
            event: { type: "item.completed", n: index },
          })
        writeFileSync(
          join(run.dir, AGENT_EVENTS_FILE),
          `${[line(0, 0), line(1, 0), line(0, 1)].join("\n")}\n{"rollout_id":"r-0","seed":0,`,
        )
        const api = makeViewerApi([yield* openRunDirectoryRun(run.dir)])
        const events = (body: unknown) =>
          (body as RolloutAgentEvents).events.map((event) => [event.seed, event.index, event.agent])
        expect(events(yield* api.get("runs/0/rollouts/0/0/agent_trajectory", {}))).toEqual([
          [0, 0, "codex"],
          [0, 1, "codex"],
        ])
        expect(events(yield* api.get("runs/0/rollouts/1/0/agent_trajectory", {}))).toEqual([[1, 0, "codex"]])
        expect(yield* api.get("runs/0/rollouts/5/0/agent_trajectory", {})).toEqual({ events: [] })
      }),
  )
})

const stepsOf = (body: unknown) => (body as RolloutSteps).steps.map((step) => [step.seed, step.index, step.kind])

describe("a run's steps", () => {
  it.scoped("are served by rollout, in the order written, with the rollouts' interleaved lines told apart", () =>
    Effect.gen(function* () {
      const run = yield* writeRun(freshDir(), [0, 1])
      run.step(
        testStep(0, 0, "model", { tool_calls: [{ id: "c1", name: "bash", arguments: '{"cmd":"ls"}' }], tokens: 12 }),
        testStep(1, 0, "note", { text: "sandbox up" }),
        testStep(0, 1, "command", { command: "ls", exit_code: 2, stdout: "", stderr: "ls: no such file" }),
        testStep(0, 2, "tool", { text: "bash", tool_call_id: "c1", output: "exit 2" }),
      )
      const api = makeViewerApi([yield* openRunDirectoryRun(run.dir)])
      const seed0 = yield* api.get("runs/0/rollouts/0/0/steps", {})
      expect(stepsOf(seed0)).toEqual([
        [0, 0, "model"],
        [0, 1, "command"],
        [0, 2, "tool"],
      ])
      expect((seed0 as RolloutSteps).steps[1]).toMatchObject({ exit_code: 2, stderr: "ls: no such file" })
      expect(stepsOf(yield* api.get("runs/0/rollouts/1/0/steps", {}))).toEqual([[1, 0, "note"]])
      // A rollout without steps (a one-shot one, or none at all) has an empty timeline, not an error.
      expect(yield* api.get("runs/0/rollouts/5/0/steps", {})).toEqual({ steps: [] })
    }),
  )

  it.live("tell the viewer's watchers that a followed run has new steps", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const run = yield* writeRun(freshDir(), [0])
        const api = makeViewerApi([yield* openRunDirectoryRun(run.dir, { followEveryMs: 10 })])
        const updated = yield* Deferred.make<void>()
        const stop = api.watch(() => Deferred.unsafeDone(updated, Exit.void))
        run.step(testStep(0, 0, "note", { text: "acting" }))
        yield* Deferred.await(updated)
        stop()
        expect(stepsOf(yield* api.get("runs/0/rollouts/0/0/steps", {}))).toEqual([[0, 0, "note"]])
      }),
    ),
  )

  it.scoped("of the run an eval is writing (`eval --view`) are served once it has started, before any result", () =>
    Effect.gen(function* () {
      const run = yield* writeRun(freshDir(), [0])
      const live = new LiveRunState()
      const api = makeViewerApi([liveRunDirectoryRun(live, "live")])
      expect(yield* api.get("runs/0/rollouts/0/0/steps", {})).toEqual({ steps: [] })
      live.onEvent({ _tag: "RunStarted", runId: "run-view", runDir: run.dir, planned: 1, alreadyDone: 0 })
      run.step(testStep(0, 0, "command", { command: "pytest", exit_code: 1 }))
      expect(stepsOf(yield* api.get("runs/0/rollouts/0/0/steps", {}))).toEqual([[0, 0, "command"]])
      run.step(testStep(0, 1, "note", { text: "graded" }))
      expect(stepsOf(yield* api.get("runs/0/rollouts/0/0/steps", {}))).toEqual([
        [0, 0, "command"],
        [0, 1, "note"],
      ])
    }),
  )

  it.scoped("of a run another process is writing (`proctor view DIR`) say what each rollout in flight did last", () =>
    Effect.gen(function* () {
      const run = yield* writeRun(freshDir(), [0, 1, 2])
      const t0 = Date.now() - 10_000
      const at = (ms: number) => ({ at: new Date(t0 + ms).toISOString(), elapsed_ms: ms })
      const lsCall = [{ id: "c1", name: "bash", arguments: '{"cmd":"ls"}' }]
      run.step(
        testStep(0, 0, "note", { text: "graded", ...at(1_000) }),
        testStep(1, 0, "model", { tool_calls: lsCall, tokens: 40, ...at(2_000) }),
        testStep(1, 1, "command", { command: "ls", exit_code: 0, ...at(4_000) }),
      )
      yield* run.add(result({ seed: 0, score: 1 }))
      const api = makeViewerApi([yield* openRunDirectoryRun(run.dir)])
      const heads = () => Effect.map(api.get("runs", {}), (body) => (body as { runs: Array<RunHead> }).runs[0])
      expect(yield* heads()).toMatchObject({ live: true })
      const live = (yield* api.get("runs/0/live", {})) as LiveRunView
      expect(live.progress).toMatchObject({ planned: 3, done: 1, inFlight: 1 })
      // Seed 1 has steps and no result: in flight since its first step's try began, its last step a command.
      expect(live.inflight).toEqual([
        {
          seed: 1,
          attempt: 0,
          state: "running",
          since_ms: expect.any(Number),
          turns: 1,
          last_step: { kind: "command", summary: "$ ls (exit 0)", ago_ms: expect.any(Number) },
          tokens: 40,
          cost_usd: null,
        },
      ])
      expect(live.inflight[0]!.since_ms).toBeGreaterThanOrEqual(10_000)
      expect(live.inflight[0]!.last_step!.ago_ms).toBeGreaterThanOrEqual(6_000)

      // Once its result is written nothing is in flight: the run is no longer shown live.
      yield* run.add(result({ seed: 1, score: 0 }))
      const reopened = makeViewerApi([yield* openRunDirectoryRun(run.dir)])
      expect(
        yield* Effect.map(reopened.get("runs", {}), (body) => (body as { runs: Array<RunHead> }).runs[0]),
      ).toMatchObject({ live: false })
      expect((yield* Effect.flip(reopened.get("runs/0/live", {}))).message).toBe("run 0 is not followed live here")
    }),
  )

  it.scoped("rows carry an agent's stop reason, turns and messages", () =>
    Effect.gen(function* () {
      const run = yield* writeRun(freshDir(), [0, 1])
      yield* run.add(result({ seed: 0, score: 0, stop_reason: "max_turns", turns: 30, messages: 61 }), 2)
      yield* run.add(result({ seed: 1, score: 1 }))
      const api = makeViewerApi([yield* openRunDirectoryRun(run.dir)])
      const { rows } = (yield* api.get("runs/0/rows", {})) as RowsPage
      expect(rows.map((r) => [r.stop_reason, r.turns, r.messages])).toEqual([
        ["max_turns", 30, 61],
        [null, null, null],
      ])
    }),
  )
})
