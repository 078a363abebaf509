/**
 * The arithmetic of a model rate gate, pure in `now` (milliseconds on the gate's clock). The in-process gate
 * runs it on a plain object; the Redis gate runs the same steps in a Lua script on a hash
 * (`@proctor/server`'s `redisRateGate.lua`), and one table of cases checks both.
 *
 * Calls are admitted by reservation: each admission takes the next free slot (`tat`, GCRA's theoretical
 * arrival time) and moves it one interval on, so a waiting call learns when to go in one step and never polls.
 * The interval is 1/rate, where the rate is the smaller of the configured requests/min and the adapted rate:
 * unlimited until a 429, then 70% of what the upstream accepted in the last second (calls admitted less those
 * answered 429; or of the adapted rate, if smaller), growing back linearly by its own size per `RECOVERY_MS`
 * without a further 429 (AIMD, as TCP does). One burst of 429s cuts once: only a call admitted after the last
 * cut cuts again; the burst's later 429s only lower that cut as they show the upstream accepted fewer calls.
 * A 429's `Retry-After` (1 s when it names none) holds every call until it has passed.
 */

/** Limits a user configured for one upstream; null: none of that kind. */
export interface ModelRateLimit {
  readonly requestsPerMinute: number | null
  readonly tokensPerMinute: number | null
}

export const NO_LIMIT: ModelRateLimit = { requestsPerMinute: null, tokensPerMinute: null }

export interface RateState {
  /** Adapted requests/s at the last cut; null until the first 429. */
  rate: number | null
  /** When the rate was last cut; null before the first 429. */
  cut: number | null
  /** The next free slot. */
  tat: number
  /** No call goes before this (a 429's `Retry-After`). */
  pause: number
  /** Admissions in the second starting at `win`, and in the second before it; and their 429s. */
  win: number
  cur: number
  prev: number
  rejCur: number
  rejPrev: number
  /** When the tokens spent so far are paid back at the configured tokens/min (GCRA over tokens). */
  ttat: number
}

/** Without a further 429, an adapted rate grows back by its own size per minute. */
export const RECOVERY_MS = 60_000
/** A 429 cuts the rate to 70% (CUBIC's factor: gentler than halving, still well below what met the limit). */
export const DECREASE = 0.7
/** The adapted rate never falls below one call a minute. */
export const MIN_RATE_PER_S = 1 / 60
/** How long a 429 without `Retry-After` holds calls. */
export const DEFAULT_PAUSE_MS = 1000
/** Tokens/min allows a minute's tokens at once, as providers' own per-minute budgets do. */
export const TOKEN_WINDOW_MS = 60_000

export const emptyRateState = (): RateState => ({
  rate: null,
  cut: null,
  tat: 0,
  pause: 0,
  win: 0,
  cur: 0,
  prev: 0,
  rejCur: 0,
  rejPrev: 0,
  ttat: 0,
})

/** Moves the two one-second admission windows on to `now`. */
const roll = (state: RateState, now: number): void => {
  const age = now - state.win
  if (age >= 2000) {
    state.prev = 0
    state.cur = 0
    state.rejPrev = 0
    state.rejCur = 0
    state.win = now
  } else if (age >= 1000) {
    state.prev = state.cur
    state.cur = 0
    state.rejPrev = state.rejCur
    state.rejCur = 0
    state.win += 1000
  }
}

/** Calls the upstream accepted in the last second (admissions less 429s), the previous window read in proportion. */
const accepted = (state: RateState, now: number): number =>
  (state.prev - state.rejPrev) * Math.max(0, 1 - (now - state.win) / 1000) + state.cur - state.rejCur

/** The adapted rate now (requests/s), or null while nothing was cut. */
const adaptedRate = (state: RateState, now: number): number | null =>
  state.rate === null || state.cut === null ? null : state.rate * (1 + (now - state.cut) / RECOVERY_MS)

/** The rate calls are spaced at now (requests/s), or null when nothing limits it. */
export const currentRate = (state: RateState, now: number, limit: ModelRateLimit): number | null => {
  const adapted = adaptedRate(state, now)
  const configured = limit.requestsPerMinute === null ? null : limit.requestsPerMinute / 60
  if (adapted === null) return configured
  return configured === null ? adapted : Math.min(adapted, configured)
}

/** Charges `tokens` a finished call spent against the configured tokens/min. */
export const charge = (state: RateState, now: number, limit: ModelRateLimit, tokens: number): void => {
  const tpm = limit.tokensPerMinute
  if (tpm === null || !(tokens > 0)) return
  state.ttat = Math.max(state.ttat, now - TOKEN_WINDOW_MS) + (tokens * 60_000) / tpm
}

/** Admits one call: takes the next free slot and returns it (the call waits `slot - now`). */
export const admit = (state: RateState, now: number, limit: ModelRateLimit): number => {
  roll(state, now)
  let slot = Math.max(now, state.pause, state.tat)
  if (limit.tokensPerMinute !== null) slot = Math.max(slot, state.ttat - TOKEN_WINDOW_MS)
  const rate = currentRate(state, now, limit)
  state.tat = rate === null ? slot : slot + 1000 / rate
  state.cur += 1
  return slot
}

/**
 * A call admitted at `admittedAt` was answered 429: every call waits out `retryAfterMs`; a call admitted after
 * the last cut cuts the rate, one admitted before it only lowers that cut (see the top of this file).
 */
export const rateLimited = (state: RateState, now: number, admittedAt: number, retryAfterMs: number | null): void => {
  roll(state, now)
  state.rejCur += 1
  state.pause = Math.max(state.pause, now + (retryAfterMs ?? DEFAULT_PAUSE_MS))
  const base = Math.max(1, accepted(state, now))
  if (state.rate !== null && state.cut !== null && admittedAt <= state.cut) {
    // The burst that already cut: its later 429s show the upstream accepted fewer calls than it seemed.
    state.rate = Math.min(state.rate, Math.max(MIN_RATE_PER_S, base * DECREASE))
    return
  }
  state.rate = Math.max(MIN_RATE_PER_S, Math.min(adaptedRate(state, now) ?? Number.POSITIVE_INFINITY, base) * DECREASE)
  state.cut = now
}
