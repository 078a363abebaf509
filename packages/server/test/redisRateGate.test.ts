import { randomUUID } from "node:crypto"
import { setImmediate as nextTurn } from "node:timers/promises"
import { upstreamId } from "@proctor/core"
import { RATE_GATE_CASES } from "@proctor/test-kit"
import { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FREE_PASS_MS, RATE_GATE_SCRIPT, redisRateGate } from "../src/interceptor/redisRateGate.js"

// Real Redis on 127.0.0.1:6379, shared with other tests: every key here is under a prefix of its own.
const REDIS_URL = "redis://127.0.0.1:6379"

let redis: Redis
beforeAll(() => {
  redis = new Redis(REDIS_URL)
  redis.defineCommand("rateGate", { numberOfKeys: 1, lua: RATE_GATE_SCRIPT })
})
afterAll(async () => {
  await redis.quit()
})

const run = (key: string, ...args: Array<string | number>) =>
  (redis as unknown as { rateGate: (key: string, ...args: Array<string | number>) => Promise<Array<number>> }).rateGate(
    key,
    ...args,
  )

describe("the Redis rate gate's script does core's arithmetic", () => {
  for (const { name, limit, steps } of RATE_GATE_CASES) {
    it(name, async () => {
      const key = `test-rate-gate-${randomUUID()}:model-rate:x`
      const limits = [limit.requestsPerMinute ?? "", limit.tokensPerMinute ?? ""]
      try {
        for (const step of steps) {
          if (step.admit !== undefined) {
            const [now, slot] = await run(key, "admit", step.at, ...limits, step.admit.tokens ?? 0)
            expect(now).toBe(step.at)
            expect(slot).toBe(Math.ceil(step.admit.slot - 1e-6))
          }
          if (step.limited !== undefined) {
            const { admittedAt, retryAfterMs } = step.limited
            await run(key, "limited", step.at, ...limits, admittedAt, retryAfterMs ?? "")
          }
        }
      } finally {
        await redis.del(key)
      }
    })
  }
})

describe("redisRateGate", () => {
  it("shares a 429 between gates (processes): another gate's next call waits out the Retry-After", async () => {
    const prefix = `test-rate-gate-${randomUUID()}`
    const one = redisRateGate({ redisUrl: REDIS_URL, prefix })
    const two = redisRateGate({ redisUrl: REDIS_URL, prefix })
    try {
      const baseUrl = "http://model.test/v1"
      const admittedAt = await new Promise<number>((resolve) => one.upstream(baseUrl, "sk-a").admit(resolve))
      one.upstream(baseUrl, "sk-a").rateLimited(admittedAt, 400)
      // The report goes over the first gate's connection: the second gate asks once Redis holds it (a cut rate).
      const key = `${prefix}:model-rate:${upstreamId(baseUrl, "sk-a")}`
      while ((await redis.hget(key, "cut")) === null) await new Promise((resolve) => setImmediate(resolve))
      const started = performance.now()
      await new Promise<number>((resolve) => two.upstream(baseUrl, "sk-a").admit(resolve))
      expect(performance.now() - started).toBeGreaterThanOrEqual(300)
      // Another key is another budget.
      const other = performance.now()
      await new Promise<number>((resolve) => two.upstream(baseUrl, "sk-b").admit(resolve))
      expect(performance.now() - other).toBeLessThan(200)
      // Nothing but a hash of URL and key reaches Redis.
      const keys = await redis.keys(`${prefix}:*`)
      expect(keys.sort()).toEqual(
        [upstreamId(baseUrl, "sk-a"), upstreamId(baseUrl, "sk-b")].map((id) => `${prefix}:model-rate:${id}`).sort(),
      )
      expect(one.upstream(baseUrl, null).retryWithinMs).toBeGreaterThan(0)
    } finally {
      await Promise.all([one.close(), two.close()])
      const keys = await redis.keys(`${prefix}:*`)
      if (keys.length > 0) await redis.del(...keys)
    }
  })

  it(`asks Redis once per ${FREE_PASS_MS} ms while nothing limits the upstream, and still counts every call`, async () => {
    const prefix = `test-rate-gate-${randomUUID()}`
    const gate = redisRateGate({ redisUrl: REDIS_URL, prefix })
    const baseUrl = "http://model.test/v1"
    try {
      const upstream = gate.upstream(baseUrl, null)
      await new Promise((resolve) => upstream.admit(resolve))
      // Within the pass every admission goes at once, with no round trip; the first one after it asks again.
      let admissions = 1
      let atOnce = 0
      for (;;) {
        let synchronous = false
        const asked = new Promise<void>((resolve) =>
          upstream.admit(() => {
            synchronous = true
            resolve()
          }),
        )
        admissions += 1
        if (!synchronous) {
          await asked
          break
        }
        atOnce += 1
        await nextTurn()
      }
      expect(atOnce).toBeGreaterThan(0)
      const [cur, prev] = await redis.hmget(`${prefix}:model-rate:${upstreamId(baseUrl, null)}`, "cur", "prev")
      expect(Number(cur) + Number(prev)).toBe(admissions)
    } finally {
      await gate.close()
      const keys = await redis.keys(`${prefix}:*`)
      if (keys.length > 0) await redis.del(...keys)
    }
  })

  it("admits by this process's own gate when Redis is out of reach: no call is lost", async () => {
    const gate = redisRateGate({ redisUrl: "redis://127.0.0.1:1", prefix: `test-rate-gate-${randomUUID()}` })
    try {
      const admitted = await new Promise<number>((resolve) =>
        gate.upstream("http://model.test/v1", null).admit(resolve),
      )
      expect(admitted).toBeGreaterThan(0)
    } finally {
      await gate.close()
    }
  })
})
