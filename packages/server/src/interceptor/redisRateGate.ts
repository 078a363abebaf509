import {
  type GatedUpstream,
  limitFor,
  localRateGate,
  type ModelRateGate,
  type ModelRateLimitRule,
  RATE_LIMIT_RETRY_MS,
  upstreamId,
} from "@proctor/core"
import { Redis } from "ioredis"

/**
 * core's `rateArithmetic`, step for step, on a Redis hash: one script run per admission (the reservation
 * comes back with it, so a call that must wait sleeps until its slot instead of asking again), one per 429.
 * Its clock is Redis's own (`TIME`), so processes on machines whose clocks disagree still share one schedule;
 * tests pass their own `now` as ARGV[2]. Tokens spent by finished calls ride along with the next admission.
 * The hash expires once idle for 10 minutes (or its pause has passed, if longer): an upstream nobody called
 * for that long starts again unlimited.
 *
 * One thing core's arithmetic lacks: while nothing limits an upstream (no configured limit, no adapted rate, no
 * pause), an admission replies `free` = 1 and the process admits its calls for the next `FREE_PASS_MS` without
 * asking, counting them; the count rides along with its next admission so the calls sent in the last second
 * (what a 429 cuts from) stay right.
 *
 * ARGV: op ("admit" | "limited"), now or "", requests/min or "", tokens/min or "", then for "admit" the tokens
 * spent since the last admission and the calls admitted since without asking, for "limited" the call's
 * admission time and its Retry-After in ms (or ""). Replies {now, slot, free} to "admit", {now} to "limited".
 */
export const RATE_GATE_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[2])
if not now then
  local t = redis.call("TIME")
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local rpm = tonumber(ARGV[3])
local tpm = tonumber(ARGV[4])
local f = redis.call("HMGET", key, "rate", "cut", "tat", "pause", "win", "cur", "prev", "ttat", "rcur", "rprev")
local rate = tonumber(f[1])
local cut = tonumber(f[2])
local tat = tonumber(f[3]) or 0
local pause = tonumber(f[4]) or 0
local win = tonumber(f[5]) or 0
local cur = tonumber(f[6]) or 0
local prev = tonumber(f[7]) or 0
local ttat = tonumber(f[8]) or 0
local rcur = tonumber(f[9]) or 0
local rprev = tonumber(f[10]) or 0
local age = now - win
if age >= 2000 then
  prev = 0
  cur = 0
  rprev = 0
  rcur = 0
  win = now
elseif age >= 1000 then
  prev = cur
  cur = 0
  rprev = rcur
  rcur = 0
  win = win + 1000
end
local adapted = nil
if rate and cut then adapted = rate * (1 + (now - cut) / 60000) end
local reply
if ARGV[1] == "admit" then
  local tokens = tonumber(ARGV[5]) or 0
  cur = cur + (tonumber(ARGV[6]) or 0)
  if tpm and tokens > 0 then ttat = math.max(ttat, now - 60000) + tokens * 60000 / tpm end
  local slot = math.max(now, pause, tat)
  if tpm then slot = math.max(slot, ttat - 60000) end
  local r = adapted
  if rpm and ((not r) or rpm / 60 < r) then r = rpm / 60 end
  if r then tat = slot + 1000 / r else tat = slot end
  cur = cur + 1
  local free = 0
  if (not r) and (not tpm) and slot <= now then free = 1 end
  reply = {now, math.ceil(slot), free}
else
  local admitted = tonumber(ARGV[5])
  rcur = rcur + 1
  pause = math.max(pause, now + (tonumber(ARGV[6]) or 1000))
  local base = math.max(1, (prev - rprev) * math.max(0, 1 - (now - win) / 1000) + cur - rcur)
  if rate and cut and admitted <= cut then
    rate = math.min(rate, math.max(1 / 60, base * 0.7))
  else
    if adapted and adapted < base then base = adapted end
    rate = math.max(1 / 60, base * 0.7)
    cut = now
  end
  reply = {now}
end
redis.call("HSET", key, "tat", tat, "pause", pause, "win", win, "cur", cur, "prev", prev, "ttat", ttat, "rcur", rcur, "rprev", rprev)
if rate then redis.call("HSET", key, "rate", rate, "cut", cut) end
redis.call("PEXPIRE", key, math.max(600000, math.ceil(pause - now) + 60000))
return reply
`

export interface RedisRateGateOptions {
  readonly redisUrl: string
  /** Every key is `${prefix}:model-rate:${upstream id}` (the id is a hash: no URL or key in clear). */
  readonly prefix: string
  readonly limits?: ReadonlyArray<ModelRateLimitRule> | undefined
  /** Tests only: the gate's clock, instead of Redis's `TIME`. */
  readonly now?: (() => number) | undefined
}

type RunScript = (key: string, ...args: Array<string | number>) => Promise<Array<number>>

/** Past this, a Redis that does not answer is given up on for the call, which the local gate admits instead. */
const COMMAND_TIMEOUT_MS = 1000

/**
 * While Redis says nothing limits an upstream, calls go without asking for this long: a round trip costs more
 * CPU than the rest of a proxied call (about 150 µs on a loaded machine), and another process's 429 still
 * reaches this one within this time and a round trip.
 */
export const FREE_PASS_MS = 100

const scheduleAt = (go: (admittedAt: number) => void, now: number, slot: number) => {
  if (slot <= now) go(now)
  else setTimeout(() => go(now), slot - now)
}

/**
 * The rate gate shared through Redis by every process that calls an upstream: a 429 one process gets slows
 * all of them, configured limits hold for all of them together, and a 429 is retried by the interceptor
 * (through the gate) for up to `RATE_LIMIT_RETRY_MS`. While a limit applies, one round trip per call
 * (auto-pipelined with the calls of the same tick), which also tells a waiting call its slot; while none does,
 * one per `FREE_PASS_MS`; one more per 429. When Redis is out of reach, calls are admitted by this process's
 * own gate: a call is never lost, or held, for want of Redis.
 */
export const redisRateGate = (options: RedisRateGateOptions): ModelRateGate => {
  const limits = options.limits ?? []
  const redis = new Redis(options.redisUrl, {
    enableAutoPipelining: true,
    commandTimeout: COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
  })
  // Errors are answered by the local gate, call by call; without a listener ioredis would print each one.
  redis.on("error", () => {})
  redis.defineCommand("proctorRateGate", { numberOfKeys: 1, lua: RATE_GATE_SCRIPT })
  const run = (redis as unknown as { proctorRateGate: RunScript }).proctorRateGate.bind(redis)
  const clock = options.now
  const fallback = localRateGate({ limits })
  const upstreams = new Map<string, GatedUpstream>()

  const make = (baseUrl: string, apiKey: string | null, id: string): GatedUpstream => {
    const key = `${options.prefix}:model-rate:${id}`
    const { requestsPerMinute, tokensPerMinute } = limitFor(limits, baseUrl)
    const head = [requestsPerMinute ?? "", tokensPerMinute ?? ""] as const
    const local = fallback.upstream(baseUrl, apiKey)
    let tokens = 0
    /** Until when (this process's clock) calls go without asking, and the Redis time that pass was given at. */
    let freeUntil = 0
    let freeSince = 0
    let freeAt = 0
    let unasked = 0
    return {
      admit: (go) => {
        const localNow = Date.now()
        if (localNow < freeUntil) {
          unasked += 1
          go(freeAt + (localNow - freeSince))
          return
        }
        const spent = tokens
        const counted = unasked
        tokens = 0
        unasked = 0
        run(key, "admit", clock?.() ?? "", ...head, spent, counted).then(
          ([now, slot, free]) => {
            if (free === 1) {
              freeSince = Date.now()
              freeUntil = freeSince + FREE_PASS_MS
              freeAt = now!
            }
            scheduleAt(go, now!, slot!)
          },
          () => {
            tokens += spent
            local.admit(go)
          },
        )
      },
      rateLimited: (admittedAt, retryAfterMs) => {
        // This process knows at once; the others at their next admission.
        freeUntil = 0
        run(key, "limited", clock?.() ?? "", ...head, admittedAt, retryAfterMs ?? "").catch(() =>
          local.rateLimited(admittedAt, retryAfterMs),
        )
      },
      spent: (used) => {
        tokens += used
      },
      retryWithinMs: RATE_LIMIT_RETRY_MS,
    }
  }

  return {
    upstream: (baseUrl, apiKey) => {
      const id = upstreamId(baseUrl, apiKey)
      let upstream = upstreams.get(id)
      if (upstream === undefined) {
        upstream = make(baseUrl, apiKey, id)
        upstreams.set(id, upstream)
      }
      return upstream
    },
    close: async () => {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
