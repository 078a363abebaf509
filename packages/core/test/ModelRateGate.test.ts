import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { RATE_GATE_CASES } from "@proctor/test-kit"
import { Effect } from "effect"
import { Interceptor } from "../src/interceptor/Interceptor.js"
import { admit, charge, emptyRateState, rateLimited } from "../src/interceptor/internal/rateArithmetic.js"
import {
  localRateGate,
  parseModelRateLimit,
  parseModelRateLimits,
  RATE_LIMIT_RETRY_MS,
  upstreamId,
} from "../src/interceptor/ModelRateGate.js"

// The gate is plain code on the proxy's per-call path, not an Effect: its arithmetic takes `now` as an argument
// and the in-process gate a clock and a timer, so these tests drive time by hand (TestClock has nothing to hold).

describe("rate gate arithmetic (in-process)", () => {
  for (const { name, limit, steps } of RATE_GATE_CASES) {
    it(name, () => {
      const state = emptyRateState()
      for (const step of steps) {
        if (step.admit !== undefined) {
          charge(state, step.at, limit, step.admit.tokens ?? 0)
          expect(admit(state, step.at, limit)).toBeCloseTo(step.admit.slot, 6)
        }
        if (step.limited !== undefined) {
          rateLimited(state, step.at, step.limited.admittedAt, step.limited.retryAfterMs)
        }
      }
    })
  }
})

const manualClock = () => {
  let now = 0
  const timers: Array<{ at: number; go: () => void }> = []
  return {
    now: () => now,
    schedule: (go: () => void, ms: number) => void timers.push({ at: now + ms, go }),
    advance: (ms: number) => {
      now += ms
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers.splice(timers.indexOf(timer), 1)
        timer.go()
      }
    },
  }
}

describe("localRateGate", () => {
  it("lets calls go synchronously until a 429, then holds every call to that upstream and key for its Retry-After", () => {
    const clock = manualClock()
    const gate = localRateGate({ now: clock.now, schedule: clock.schedule })
    const upstream = gate.upstream("http://model.test/v1", "sk-a")
    const admitted: Array<number> = []
    upstream.admit((at) => admitted.push(at))
    expect(admitted).toEqual([0])
    upstream.rateLimited(0, 2000)
    gate.upstream("http://model.test/v1/", "sk-a").admit((at) => admitted.push(at))
    // Another key is another account's budget: not held.
    gate.upstream("http://model.test/v1", "sk-b").admit((at) => admitted.push(at + 0.5))
    expect(admitted).toEqual([0, 0.5])
    clock.advance(1999)
    expect(admitted).toEqual([0, 0.5])
    clock.advance(1)
    expect(admitted).toEqual([0, 0.5, 0])
  })

  it("passes 429s on (retryWithinMs 0) unless the upstream has a configured limit", () => {
    const gate = localRateGate({
      limits: [{ baseUrl: "http://limited.test/v1", requestsPerMinute: 60, tokensPerMinute: null }],
    })
    expect(gate.upstream("http://other.test/v1", null).retryWithinMs).toBe(0)
    expect(gate.upstream("http://limited.test/v1", null).retryWithinMs).toBe(RATE_LIMIT_RETRY_MS)
  })

  it("charges the tokens a call spent at once against the configured tokens/min", () => {
    const clock = manualClock()
    const gate = localRateGate({
      limits: [{ baseUrl: "http://model.test/v1", requestsPerMinute: null, tokensPerMinute: 1000 }],
      now: clock.now,
      schedule: clock.schedule,
    })
    const upstream = gate.upstream("http://model.test/v1", null)
    upstream.spent(1500)
    let admitted = false
    upstream.admit(() => {
      admitted = true
    })
    // 1,500 tokens at 1,000/min are paid back 90 s from now; a minute's worth may be spent ahead.
    clock.advance(29_999)
    expect(admitted).toBe(false)
    clock.advance(1)
    expect(admitted).toBe(true)
  })
})

describe("model rate limit specs", () => {
  it("reads <base URL>=<N>rpm[,<N>tpm], whatever the URL's own = signs", () => {
    expect(parseModelRateLimit("https://api.openai.com/v1=500rpm,200000tpm")).toEqual({
      baseUrl: "https://api.openai.com/v1",
      requestsPerMinute: 500,
      tokensPerMinute: 200_000,
    })
    expect(parseModelRateLimit("https://gw.test/v1?api-version=2=30TPM")).toEqual({
      baseUrl: "https://gw.test/v1?api-version=2",
      requestsPerMinute: null,
      tokensPerMinute: 30,
    })
    expect(parseModelRateLimits(" http://a.test/v1=1rpm \n http://b.test=2rpm ")).toHaveLength(2)
  })

  it("says what is wrong with a bad spec", () => {
    expect(parseModelRateLimit("https://api.openai.com/v1")).toContain("expected <base URL>=<N>rpm")
    expect(parseModelRateLimit("api.openai.com=5rpm")).toContain('"api.openai.com" is not an http(s) URL')
    expect(parseModelRateLimit("http://a.test=0rpm")).toContain('"0rpm" is not a positive <N>rpm or <N>tpm')
    expect(parseModelRateLimit("http://a.test=5rps")).toContain('"5rps"')
    expect(parseModelRateLimits("http://a.test=1rpm nonsense")).toContain('"nonsense"')
  })

  it("names an upstream's state by a hash: the key never appears, and each key has its own", () => {
    const id = upstreamId("https://api.openai.com/v1", "sk-secret")
    expect(id).toMatch(/^[0-9a-f]{32}$/)
    expect(id).not.toContain("secret")
    expect(upstreamId("https://api.openai.com/v1/", "sk-secret")).toBe(id)
    expect(upstreamId("https://api.openai.com/v1", "sk-other")).not.toBe(id)
  })
})

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })

describe("the interceptor and its rate gate", () => {
  it.scoped("retries a 429 itself after its Retry-After where a limit is configured: the caller sees the answer", () =>
    Effect.gen(function* () {
      const arrivals: Array<number> = []
      const upstream = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const server = createServer((req, res) => {
            req.resume()
            arrivals.push(performance.now())
            if (arrivals.length === 1) {
              res.writeHead(429, { "content-type": "application/json", "retry-after-ms": "300" })
              res.end(JSON.stringify({ error: { message: "slow down" } }))
              return
            }
            const body = JSON.stringify({
              model: "m",
              choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
              usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
            })
            res.writeHead(200, { "content-type": "application/json" })
            res.end(body)
          })
          await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
          return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }
        }),
        ({ server }) => Effect.promise(() => closeServer(server)),
      )
      const rateGate = localRateGate({
        limits: [{ baseUrl: upstream.url, requestsPerMinute: 6000, tokensPerMinute: null }],
      })
      const interceptor = yield* Interceptor.make({ rateGate })
      const served = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const server = createServer((req, res) => {
            const chunks: Array<Buffer> = []
            req.on("data", (chunk: Buffer) => chunks.push(chunk))
            req.on("end", () => interceptor.handle(req, res, Buffer.concat(chunks)))
          })
          await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
          interceptor.setBaseUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
          return server
        }),
        (server) => Effect.promise(() => closeServer(server)),
      )
      expect(served.listening).toBe(true)
      const { cid, inferenceUrl } = yield* interceptor.open({
        runId: "run",
        rolloutId: "r",
        seed: 0,
        attempt: 0,
        upstream: { baseUrl: upstream.url },
      })
      const response = yield* Effect.promise(() =>
        fetch(`${inferenceUrl}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
        }).then(async (r) => ({ status: r.status, body: await r.text() })),
      )
      expect(response.status).toBe(200)
      expect(response.body).toContain('"ok"')
      expect(arrivals).toHaveLength(2)
      expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(295)
      const calls = yield* interceptor.close(cid)
      expect(calls).toHaveLength(1)
      expect(calls[0]).toMatchObject({ outcome: "ok", status: 200, usage: { total_tokens: 4 } })
    }),
  )
})
