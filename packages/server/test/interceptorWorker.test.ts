import { createServer as createHttpServer } from "node:http"
import { type AddressInfo, createServer } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { InterceptorError, Pricing, type RolloutInterception } from "@proctor/core"
import { Effect, Exit, Redacted } from "effect"
import { afterAll, beforeAll } from "vitest"
import { createBaselineModel, type RunningBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { startInterceptor } from "../src/index.js"
import {
  launchInterceptorThread,
  type RunningInterceptorWorker,
  startInterceptorWorker,
} from "../src/internal/interceptorThread.js"

const UPSTREAM_KEY = "sk-worker-test-5f1c2a9e"
const PRICE = { input: 1e-6, output: 2e-6 }

let baseline: RunningBaselineModel
let worker: RunningInterceptorWorker

beforeAll(async () => {
  baseline = await createBaselineModel({ latencyMs: 0 }).listen()
  worker = await startInterceptorWorker({ pricingOverrides: [{ provider: null, model: "baseline", price: PRICE }] })
})

afterAll(async () => {
  await worker.stop()
  await baseline.close()
})

const CHAT = {
  model: "baseline",
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "What is 2 + 3?" },
  ],
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })

const openRollout = (seed: number, baseUrl = baseline.url) =>
  worker.open({
    runId: "run-worker",
    rolloutId: `app-seed-${seed}`,
    seed,
    attempt: 0,
    upstream: { baseUrl, apiKey: Redacted.make(UPSTREAM_KEY) },
  })

describe("the interceptor on its own thread", () => {
  it.effect("records each call with the usage the upstream reported, priced from the given overrides", () =>
    Effect.gen(function* () {
      const { cid, inferenceUrl } = yield* openRollout(7)
      expect(inferenceUrl).toBe(`${worker.url}/${cid}/v1`)
      const json = yield* Effect.promise(async () => (await post(`${inferenceUrl}/chat/completions`, CHAT)).json())
      const streamed = yield* Effect.promise(async () =>
        (await post(`${inferenceUrl}/chat/completions`, { ...CHAT, stream: true })).text(),
      )
      expect(streamed).toContain("data: [DONE]")

      const calls = yield* worker.close(cid)
      expect(calls.map((call) => [call.seed, call.stream, call.outcome])).toEqual([
        [7, false, "ok"],
        [7, true, "ok"],
      ])
      const usage = (json as { usage: { prompt_tokens: number; completion_tokens: number } }).usage
      expect(calls[0]!.usage).toMatchObject(usage)
      expect(calls[0]!.cost_usd).toBeCloseTo(usage.prompt_tokens * PRICE.input + usage.completion_tokens * PRICE.output)
      expect(calls[1]!.usage?.total_tokens).toBeGreaterThan(0)
      expect(calls[1]!.ttft_ms).not.toBeNull()
      expect(JSON.stringify(calls)).not.toContain(UPSTREAM_KEY)
      // Closed: the id is refused from now on, and closing again gives nothing.
      expect((yield* Effect.promise(() => post(`${inferenceUrl}/chat/completions`, CHAT))).status).toBe(404)
      expect(yield* worker.close(cid)).toEqual([])
    }),
  )

  it("brings back the same record an interceptor on the calling thread makes", async () => {
    // The thread sends its calls in batches, as JSON: what arrives must be what was recorded.
    const inThread = await startInterceptor({
      priceCall: Pricing.make([{ provider: null, model: "baseline", price: PRICE }]).costOf,
    })
    const recordOf = async (interceptor: RolloutInterception) => {
      const { cid, inferenceUrl } = await Effect.runPromise(
        interceptor.open({
          runId: "same",
          rolloutId: "same-0",
          seed: 0,
          attempt: 0,
          upstream: { baseUrl: baseline.url },
        }),
      )
      await (await post(`${inferenceUrl}/chat/completions`, CHAT)).text()
      await (await post(`${inferenceUrl}/chat/completions`, { ...CHAT, stream: true })).text()
      const calls = await Effect.runPromise(interceptor.close(cid))
      // Ids, clocks and timings differ from call to call; everything else is the record.
      return calls.map(({ call_id, started_at, completed_at, latency_ms, ttft_ms, ...rest }) => ({
        ...rest,
        ttft: ttft_ms === null ? null : "timed",
      }))
    }
    try {
      const expected = await recordOf(inThread.interceptor)
      expect(expected).toHaveLength(2)
      expect(await recordOf(worker)).toEqual(expected)
    } finally {
      await inThread.close()
    }
  })

  it.effect("keeps concurrent rollouts apart", () =>
    Effect.gen(function* () {
      const seeds = Array.from({ length: 16 }, (_, i) => i)
      const opened = yield* Effect.forEach(seeds, (seed) => openRollout(seed), { concurrency: "unbounded" })
      yield* Effect.forEach(
        opened,
        ({ inferenceUrl }, i) =>
          Effect.promise(() =>
            Promise.all(Array.from({ length: i % 3 }, () => post(`${inferenceUrl}/chat/completions`, CHAT))),
          ),
        { concurrency: "unbounded" },
      )
      const closed = yield* Effect.forEach(opened, ({ cid }) => worker.close(cid), { concurrency: "unbounded" })
      closed.forEach((calls, i) => {
        expect(calls).toHaveLength(i % 3)
        for (const call of calls) expect(call.seed).toBe(i)
      })
    }),
  )

  it("brings back a call still in flight when its rollout closes, as cancelled", async () => {
    // An upstream that takes the request and never answers; it says when the request has reached it.
    let reached: () => void = () => {}
    const requestReached = new Promise<void>((resolve) => {
      reached = resolve
    })
    const silent = createHttpServer(() => reached())
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`
    try {
      const { cid, inferenceUrl } = await Effect.runPromise(openRollout(3, silentUrl))
      const finished = await Effect.runPromise(openRollout(4))
      await post(`${finished.inferenceUrl}/chat/completions`, CHAT)
      const answer = post(`${inferenceUrl}/chat/completions`, CHAT).then(
        (response) => response.status,
        () => "cut",
      )
      await requestReached
      const calls = await Effect.runPromise(worker.close(cid))
      expect(calls.map((call) => [call.seed, call.outcome])).toEqual([[3, "cancelled"]])
      expect(await answer).toBe("cut")
      // The other rollout's finished call waited on this side of the thread for its own close.
      expect((await Effect.runPromise(worker.close(finished.cid))).map((call) => call.seed)).toEqual([4])
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
  })

  it.effect("refuses an upstream that is not an http(s) URL with the interceptor's own error", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(openRollout(1, "ftp://models.example/v1"))
      expect(exit).toStrictEqual(
        Exit.fail(
          new InterceptorError({
            reason: "InvalidUpstream",
            message: "the upstream base URL must be http(s), not ftp:",
          }),
        ),
      )
    }),
  )

  it("fails to start with the reason when its port is taken, and refuses rollouts once stopped", async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve))
    const port = (blocker.address() as { port: number }).port
    await expect(startInterceptorWorker({ port })).rejects.toThrow(/the interceptor cannot start: .*EADDRINUSE/)
    blocker.close()

    const other = await startInterceptorWorker()
    const { cid } = await Effect.runPromise(
      other.open({ runId: "r", rolloutId: "x", seed: 0, attempt: 0, upstream: { baseUrl: baseline.url } }),
    )
    await other.stop()
    const exit = await Effect.runPromiseExit(
      other.open({ runId: "r", rolloutId: "y", seed: 1, attempt: 0, upstream: { baseUrl: baseline.url } }),
    )
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("Stopped")
    expect(await Effect.runPromise(other.close(cid))).toEqual([])
  })

  it("takes over a thread launched ahead, whose announcement came before anyone took it", async () => {
    const launched = launchInterceptorThread()
    const url = await launched.listening
    const taken = await startInterceptorWorker({ launched })
    expect(taken.url).toBe(url)
    const { cid, inferenceUrl } = await Effect.runPromise(
      taken.open({ runId: "r", rolloutId: "early", seed: 3, attempt: 0, upstream: { baseUrl: baseline.url } }),
    )
    expect((await post(`${inferenceUrl}/chat/completions`, CHAT)).status).toBe(200)
    const calls = await Effect.runPromise(taken.close(cid))
    expect(calls.map((call) => [call.seed, call.outcome])).toEqual([[3, "ok"]])
    await taken.stop()
  })
})
