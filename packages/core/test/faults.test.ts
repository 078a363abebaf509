import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { testRunConfig } from "@proctor/test-kit"
import { Effect, Fiber, Layer, PubSub, Queue } from "effect"
import type { EvalRunConfig } from "../src/config/EvalRunConfig.js"
import { taskAppSolverLayer } from "../src/eval/EvalRun.js"
import type { RunEvent } from "../src/events/RunEvents.js"
import { type EvalResult, rolloutKeyId } from "../src/result/EvalResult.js"
import type { BackoffPolicy } from "../src/runner/Backoff.js"
import { makeRunControl, type RunControl } from "../src/runner/RunControl.js"
import { runRollouts } from "../src/runner/Runner.js"
import { RESULTS_FILE, RunDirectoryStoreLayer, readJournal } from "../src/store/RunDirectory.js"
import {
  type Fault,
  type FaultyTaskApp,
  type FaultyTaskAppOptions,
  seededRandom,
  startFaultyTaskApp,
} from "./fixtures/faultyTaskApp.js"

const backoff: BackoffPolicy = { baseMs: 5, maxMs: 20, maxRetryAfterMs: 1500 }

const makeConfig = (url: string, overrides: Partial<EvalRunConfig>): EvalRunConfig =>
  testRunConfig({ app_id: "faulty", task_app_url: url, ...overrides })

/** A task app and a temp run directory, both gone when the test's scope closes. */
const fixture = (
  script: (seed: number, tryIndex: number) => Fault,
  options: Omit<FaultyTaskAppOptions, "script"> = {},
) =>
  Effect.acquireRelease(
    Effect.promise(async () => ({
      app: await startFaultyTaskApp({ script, ...options }),
      dir: mkdtempSync(join(tmpdir(), "proctor-faults-")),
    })),
    ({ app, dir }) =>
      Effect.promise(async () => {
        await app.close()
        rmSync(dir, { recursive: true, force: true })
      }),
  )

/** The real stack: HTTP solver over undici, the run-directory journal, the runner. */
const run = (
  config: EvalRunConfig,
  dir: string,
  extra: { readonly control?: RunControl; readonly events?: PubSub.PubSub<RunEvent> } = {},
) =>
  runRollouts({ runId: "faults-run", config, backoff, ...extra }).pipe(
    Effect.provide(Layer.merge(taskAppSolverLayer(config), RunDirectoryStoreLayer(dir, config))),
  )

const journalLines = (dir: string): Array<EvalResult> =>
  readFileSync(join(dir, RESULTS_FILE), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as EvalResult)

/** Nothing lost, nothing duplicated: one journal line per planned key, and the summary agrees. */
const expectOneLinePerKey = (dir: string, seeds: ReadonlyArray<number>) => {
  const lines = journalLines(dir)
  const keys = new Set(lines.map(rolloutKeyId))
  expect(lines).toHaveLength(seeds.length)
  expect(keys.size).toBe(seeds.length)
  expect([...keys].sort()).toEqual(seeds.map((seed) => rolloutKeyId({ seed, attempt: 0 })).sort())
}

const tries = (app: FaultyTaskApp, seed: number) => app.requestsFor(seed).length

describe("the runner against a fault-injecting task app", () => {
  /** seed → the task app's answers to its successive tries; the last one repeats. */
  const transientThenOk: Record<number, ReadonlyArray<Fault>> = {
    0: ["http_500", "ok"],
    1: ["rate_limited", "ok"],
    2: ["reset", "ok"],
    3: ["hang", "ok"],
    4: ["truncated", "ok"],
    5: ["hang_after_headers", "ok"],
    6: ["http_502", "reset", "truncated", "ok"],
    7: ["ok"],
  }
  const answeredOnce: Record<number, readonly [Fault, string]> = {
    10: ["unauthorised", "auth"],
    11: ["http_422", "http_4xx"],
    12: ["http_400_plain", "http_4xx"],
    13: ["wrong_shape", "decode"],
    14: ["aborted", "aborted"],
  }
  const PERMANENT_503 = 20
  const scripts: Record<number, ReadonlyArray<Fault>> = {
    ...transientThenOk,
    ...Object.fromEntries(Object.entries(answeredOnce).map(([seed, [fault]]) => [seed, [fault]])),
    [PERMANENT_503]: ["http_503"],
  }
  const script = (seed: number, tryIndex: number): Fault => {
    const faults = scripts[seed]!
    return faults[Math.min(tryIndex, faults.length - 1)]!
  }
  const seeds = Object.keys(scripts).map(Number)

  it.scopedLive("retries transient faults to success, records answers once, and gives up on a permanent 503", () =>
    Effect.gen(function* () {
      const { app, dir } = yield* fixture(script)
      const config = makeConfig(app.url, { seeds, concurrency: 8, timeout_s: 1, max_retries: 3 })
      const events = yield* PubSub.unbounded<RunEvent>()
      const subscription = yield* PubSub.subscribe(events)
      const outcome = yield* run(config, dir, { events })
      const journal = yield* readJournal(dir, config)
      const published = [...(yield* Queue.takeAll(subscription))]

      expectOneLinePerKey(dir, seeds)
      expect(journal.size).toBe(seeds.length)
      const result = (seed: number) => journal.get(rolloutKeyId({ seed, attempt: 0 }))!

      for (const [seed, faults] of Object.entries(transientThenOk)) {
        const expectedRetries = faults.length - 1
        expect(result(Number(seed)), `seed ${seed} (${faults.join(" → ")})`).toMatchObject({
          status: "ok",
          error_kind: null,
          error: null,
          score: 1,
          tokens: 10,
          retries: expectedRetries,
        })
        expect(tries(app, Number(seed)), `requests for seed ${seed}`).toBe(expectedRetries + 1)
      }

      for (const [seed, [fault, kind]] of Object.entries(answeredOnce)) {
        expect(result(Number(seed)), `seed ${seed} (${fault})`).toMatchObject({
          status: "error",
          error_kind: kind,
          retries: 0,
          score: null,
        })
        expect(tries(app, Number(seed)), `requests for seed ${seed} (${fault}) are never retried`).toBe(1)
      }
      expect(result(10).error).toMatch(/API key/)

      expect(result(PERMANENT_503)).toMatchObject({ status: "error", error_kind: "http_5xx", retries: 3 })
      expect(result(PERMANENT_503).error).toContain("503")
      expect(tries(app, PERMANENT_503)).toBe(4)

      // The 429 said `Retry-After: 1`: its retry came no sooner, although the backoff base is 5 ms.
      const [limited, afterLimit] = app.requestsFor(1)
      expect(afterLimit!.at - limited!.at).toBeGreaterThanOrEqual(1000)

      // The hang was cut by the 1 s deadline, not waited out.
      const [hung, afterHang] = app.requestsFor(3)
      expect(afterHang!.at - hung!.at).toBeGreaterThanOrEqual(900)
      expect(afterHang!.at - hung!.at).toBeLessThan(5000)

      // Every retry was announced, with the kind of error that caused it and the delay honoured.
      const retried = published.flatMap((e) => (e._tag === "RolloutRetried" ? [e] : []))
      expect(retried.filter((e) => e.key.seed === 6).map((e) => [e.retry, e.errorKind])).toEqual([
        [1, "http_5xx"],
        [2, "unreachable"],
        [3, "malformed_body"],
      ])
      expect(retried.filter((e) => e.key.seed === 3).map((e) => e.errorKind)).toEqual(["timeout"])
      expect(retried.filter((e) => e.key.seed === 5).map((e) => e.errorKind)).toEqual(["timeout"])
      const rateLimited = retried.filter((e) => e.key.seed === 1)
      expect(rateLimited.map((e) => e.errorKind)).toEqual(["rate_limited"])
      expect(rateLimited[0]!.delayMs).toBeGreaterThanOrEqual(1000)
      expect(retried).toHaveLength(outcome.summary.retries)
      expect(published.filter((e) => e._tag === "RolloutFinished")).toHaveLength(seeds.length)
      expect(published.at(-1)).toMatchObject({ _tag: "RunFinished", interrupted: false })

      expect(outcome.interrupted).toBe(false)
      expect(outcome.summary).toMatchObject({
        planned: seeds.length,
        completed: seeds.length,
        missing: 0,
        ok: Object.keys(transientThenOk).length,
        errored: Object.keys(answeredOnce).length + 1,
        retries: Object.values(transientThenOk).reduce((n, f) => n + f.length - 1, 0) + 3,
      })
      expect(outcome.summary.errors_by_kind).toEqual({ auth: 1, http_4xx: 2, decode: 1, aborted: 1, http_5xx: 1 })
      const summaryOnDisk = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"))
      expect(summaryOnDisk.completed).toBe(seeds.length)
    }),
  )

  it.scopedLive("classifies each transient fault that outlasts max_retries", () =>
    Effect.gen(function* () {
      const permanent: Record<number, readonly [Fault, string]> = {
        0: ["http_500", "http_5xx"],
        1: ["rate_limited_now", "rate_limited"],
        2: ["reset", "unreachable"],
        3: ["hang", "timeout"],
        4: ["truncated", "malformed_body"],
        5: ["hang_after_headers", "timeout"],
      }
      const seeds = Object.keys(permanent).map(Number)
      const { app, dir } = yield* fixture((seed) => permanent[seed]![0])
      const config = makeConfig(app.url, { seeds, concurrency: 6, timeout_s: 1, max_retries: 1 })
      const outcome = yield* run(config, dir)
      const journal = yield* readJournal(dir, config)

      expectOneLinePerKey(dir, seeds)
      for (const [seed, [fault, kind]] of Object.entries(permanent)) {
        expect(journal.get(rolloutKeyId({ seed: Number(seed), attempt: 0 })), fault).toMatchObject({
          status: "error",
          error_kind: kind,
          retries: 1,
        })
        expect(tries(app, Number(seed)), fault).toBe(2)
      }
      expect(outcome.summary.errors_by_kind).toEqual({
        http_5xx: 1,
        rate_limited: 1,
        unreachable: 1,
        timeout: 2,
        malformed_body: 1,
      })
    }),
  )

  it.scopedLive("the rollout deadline is a deadline: a body that trickles in for 3 s fails at 1 s as a timeout", () =>
    Effect.gen(function* () {
      // The server is never idle for long (a byte every 200 ms), so a per-chunk idle timeout never fires;
      // `timeout_s` is documented as the deadline of one rollout.
      const { app, dir } = yield* fixture(() => "drip_body")
      const config = makeConfig(app.url, { seeds: [0], concurrency: 1, timeout_s: 1, max_retries: 0 })
      yield* run(config, dir)
      const result = (yield* readJournal(dir, config)).get("0:0")!
      expect(tries(app, 0)).toBe(1)
      expect(result).toMatchObject({ status: "error", error_kind: "timeout", retries: 0 })
    }),
  )

  it.scopedLive("a task app that is not listening is unreachable, retried, then recorded", () =>
    Effect.gen(function* () {
      const { app, dir } = yield* fixture(() => "ok")
      const url = app.url
      yield* Effect.promise(app.close)
      const config = makeConfig(url, { seeds: [0, 1, 2], concurrency: 3, timeout_s: 1, max_retries: 2 })
      const outcome = yield* run(config, dir)
      expectOneLinePerKey(dir, [0, 1, 2])
      for (const result of (yield* readJournal(dir, config)).values()) {
        expect(result).toMatchObject({ status: "error", error_kind: "unreachable", retries: 2 })
        expect(result.error).toMatch(/unreachable/)
      }
      expect(outcome.summary).toMatchObject({ completed: 3, errored: 3, missing: 0, is_valid: false })
    }),
  )

  it.scopedLive(
    "a transient error that arrives after a stop leaves its key missing for resume, not a final error",
    () =>
      Effect.gen(function* () {
        // Seed 0's first answer is a 503 that takes 300 ms (a task app being restarted, the usual reason to
        // press Ctrl-C); the stop arrives while it is in flight. Its retries never ran, so it is not finished.
        const { app, dir } = yield* fixture((seed, tryIndex) => (seed === 0 && tryIndex === 0 ? "slow_503" : "ok"))
        const seeds = [0, 1, 2, 3]
        const config = makeConfig(app.url, { seeds, concurrency: 1, timeout_s: 5, max_retries: 3 })
        const control = makeRunControl()
        const fiber = yield* Effect.fork(run(config, dir, { control }))
        while (app.requests.length === 0) yield* Effect.sleep("5 millis")
        control.requestStop()
        const stopped = yield* Fiber.join(fiber)
        expect(stopped.interrupted).toBe(true)
        expect(tries(app, 0)).toBe(1)
        expect((yield* readJournal(dir, config)).get("0:0"), "seed 0 must be left for resume").toBeUndefined()
        expect(stopped.summary.missing).toBe(4)

        const resumed = yield* run(config, dir)
        expect(resumed.summary).toMatchObject({ completed: 4, ok: 4, missing: 0 })
        expectOneLinePerKey(dir, seeds)
      }),
  )

  it.scopedLive("a second run over the same directory sends nothing: every key is already journaled", () =>
    Effect.gen(function* () {
      const { app, dir } = yield* fixture((seed, tryIndex) => (seed % 3 === 0 && tryIndex === 0 ? "reset" : "ok"))
      const seeds = Array.from({ length: 12 }, (_, i) => i)
      const config = makeConfig(app.url, { seeds, concurrency: 4, timeout_s: 5 })
      yield* run(config, dir)
      const sent = app.requests.length
      expect(sent).toBe(12 + 4)

      const again = yield* run(config, dir)
      expect(app.requests.length).toBe(sent)
      expect(again.summary).toMatchObject({ completed: 12, ok: 12, missing: 0, retries: 4 })
      expectOneLinePerKey(dir, seeds)
    }),
  )

  it.scopedLive("300 seeds at concurrency 32 with a seeded mix of transient faults end in 300 ok results", () =>
    Effect.gen(function* () {
      const random = seededRandom(20251121)
      const transient: ReadonlyArray<Fault> = [
        "http_500",
        "http_502",
        "http_503",
        "reset",
        "truncated",
        "rate_limited_now",
        "hang",
      ]
      const seeds = Array.from({ length: 300 }, (_, i) => i)
      const plans = new Map<number, ReadonlyArray<Fault>>()
      for (const seed of seeds) {
        const faults: Array<Fault> = []
        const count = Math.floor(random() * 3) // 0, 1 or 2 faults before success
        for (let i = 0; i < count; i++) {
          // Hangs cost a whole deadline each: keep them rare.
          const pick = transient[Math.floor(random() * transient.length)]!
          faults.push(pick === "hang" && random() < 0.7 ? "http_503" : pick)
        }
        plans.set(seed, [...faults, "ok"])
      }
      const { app, dir } = yield* fixture((seed, tryIndex) => {
        const plan = plans.get(seed)!
        return plan[Math.min(tryIndex, plan.length - 1)]!
      })
      const config = makeConfig(app.url, { seeds, concurrency: 32, timeout_s: 1, max_retries: 3 })
      const outcome = yield* run(config, dir)
      const journal = yield* readJournal(dir, config)

      expectOneLinePerKey(dir, seeds)
      expect(journal.size).toBe(300)
      expect([...journal.values()].every((r) => r.status === "ok")).toBe(true)
      for (const seed of seeds) {
        const expectedRetries = plans.get(seed)!.length - 1
        expect(journal.get(rolloutKeyId({ seed, attempt: 0 }))!.retries, `seed ${seed}`).toBe(expectedRetries)
        expect(tries(app, seed), `requests for seed ${seed}`).toBe(expectedRetries + 1)
      }
      const totalRetries = [...plans.values()].reduce((n, plan) => n + plan.length - 1, 0)
      expect(totalRetries).toBeGreaterThan(100)
      expect(outcome.summary).toMatchObject({
        planned: 300,
        completed: 300,
        ok: 300,
        errored: 0,
        missing: 0,
        is_valid: true,
        retries: totalRetries,
      })
    }),
  )
})

describe("answers that are not results", () => {
  it.scopedLive("a 2xx answer without a finite score is a no_score error: never retried, never ok, never valid", () =>
    Effect.gen(function* () {
      const answers: Record<number, readonly [Fault, RegExp]> = {
        0: ["hello_world", /has no score: it has no metrics/],
        1: ["metrics_without_score", /none of outcome_objectives\.reward, outcome_reward, outcome_score/],
        2: ["error_without_score", /no metrics; the task app reported the error "environment crashed"/],
        // The first score field holds Infinity: no score, not a fall-through to outcome_score's 0.5.
        3: ["score_1e999", /metrics\.outcome_reward is Infinity, not a finite number/],
        4: ["score_nan", /metrics\.outcome_score is NaN/],
        5: ["score_infinity", /metrics\.mean_return is -Infinity/],
      }
      const seeds = [...Object.keys(answers).map(Number), 6]
      const { app, dir } = yield* fixture((seed) => answers[seed]?.[0] ?? "ok")
      const config = makeConfig(app.url, { seeds, concurrency: 4, timeout_s: 5, max_retries: 3 })
      const outcome = yield* run(config, dir)
      const journal = yield* readJournal(dir, config)

      expectOneLinePerKey(dir, seeds)
      for (const [seed, [fault, message]] of Object.entries(answers)) {
        const result = journal.get(rolloutKeyId({ seed: Number(seed), attempt: 0 }))!
        expect(result, fault).toMatchObject({ status: "error", error_kind: "no_score", score: null, retries: 0 })
        expect(result.error, fault).toMatch(message)
        expect(tries(app, Number(seed)), `${fault} is never retried`).toBe(1)
      }
      expect(journal.get("6:0")).toMatchObject({ status: "ok", score: 1 })
      expect(outcome.summary).toMatchObject({ completed: 7, ok: 1, errored: 6, is_valid: false })
      expect(outcome.summary.errors_by_kind).toEqual({ no_score: 6 })
      expect(outcome.summary.invalid_reasons).toContain("6 of 7 rollouts answered without a score (no_score)")
      expect(outcome.summary.metrics).toMatchObject({ count: 1, mean_score: 1 })
    }),
  )

  it.scopedLive("an answer over max_response_bytes is refused as it streams in: too_large, never retried", () =>
    Effect.gen(function* () {
      const limit = 64 * 1024
      const bigBodyBytes = 32 * 1024 * 1024
      const answers: Record<number, Fault> = { 0: "huge_declared", 1: "huge_chunked", 2: "huge_valid", 3: "ok" }
      const seeds = Object.keys(answers).map(Number)
      const { app, dir } = yield* fixture((seed) => answers[seed]!, { bigBodyBytes })
      const config = makeConfig(app.url, { seeds, concurrency: 4, timeout_s: 10, max_retries: 3 })
      const outcome = yield* run({ ...config, max_response_bytes: limit }, dir)
      const journal = yield* readJournal(dir, config)

      for (const seed of [0, 1, 2]) {
        const result = journal.get(rolloutKeyId({ seed, attempt: 0 }))!
        expect(result, answers[seed]).toMatchObject({ status: "error", error_kind: "too_large", retries: 0 })
        expect(result.error).toContain(`more than ${limit} bytes (max_response_bytes)`)
        expect(tries(app, seed), `${answers[seed]} is never retried`).toBe(1)
      }
      expect(journal.get("3:0")).toMatchObject({ status: "ok", score: 1 })
      expect(outcome.summary.errors_by_kind).toEqual({ too_large: 3 })
      expect(outcome.summary.invalid_reasons).toContain(
        "3 of 4 rollouts answered more than max_response_bytes (too_large)",
      )

      // The client hung up: the task app could write no more than the limit plus what the sockets buffer,
      // far short of the 32 MiB it meant to send. A declared length is refused before the body is read.
      const cut = (seed: number) =>
        Effect.gen(function* () {
          while (app.paddingSent(seed)?.done !== true) yield* Effect.sleep("5 millis")
          return app.paddingSent(seed)!.bytes
        })
      expect(yield* cut(0)).toBeLessThan(bigBodyBytes / 4)
      expect(yield* cut(1)).toBeLessThan(bigBodyBytes / 4)
    }),
  )

  it.scopedLive(
    "an answer is read as UTF-8 text: a leading byte-order mark dropped, characters cut across chunks kept",
    () =>
      Effect.gen(function* () {
        const { app, dir } = yield* fixture(() => "bom_split")
        const config = makeConfig(app.url, { seeds: [0], concurrency: 1, timeout_s: 10, max_retries: 0 })
        yield* run(config, dir)
        expect((yield* readJournal(dir, config)).get("0:0")).toMatchObject({
          status: "ok",
          score: 1,
          details: { note: "naïve ∑ 🙂" },
        })
      }),
  )

  it.scopedLive("an answer under max_response_bytes is read whole, however long", () =>
    Effect.gen(function* () {
      const { app, dir } = yield* fixture(() => "huge_valid", { bigBodyBytes: 2 * 1024 * 1024 })
      const config = makeConfig(app.url, { seeds: [0], concurrency: 1, timeout_s: 10, max_retries: 0 })
      yield* run({ ...config, max_response_bytes: 2 * 1024 * 1024 }, dir)
      expect((yield* readJournal(dir, config)).get("0:0")).toMatchObject({ status: "ok", score: 1 })
    }),
  )
})
