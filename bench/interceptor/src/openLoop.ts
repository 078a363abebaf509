import { log } from "@proctor/bench-shared"
import { Pool } from "undici"
import {
  busiestThread,
  type InterceptorProcess,
  type Pauses,
  type PhaseCpu,
  preemptions,
  startPhaseMeter,
  type Upstream,
} from "./processes.js"
import { API_PATH, type BenchApi, BODIES, type Timing, timeJson, timeStream } from "./requests.js"
import { CALLS_PER_ROLLOUT, CIDS, RATE } from "./settings.js"

/** One rollout of a latency phase: the pairs whose proxied request went under its cid, in send order. */
export interface Generation {
  readonly opening: Promise<string>
  cid: string | null
  readonly pairs: Array<number>
  completed: number
  /** The slot moved on to the next rollout: no more requests come under this cid. */
  sealed: boolean
  closing: Promise<void> | null
}

/** Load-generator connection pools, one per origin, kept across phases (warm-ups warm them). */
export const pools = new Map<string, Pool>()
export const poolFor = (origin: string): Pool => {
  let pool = pools.get(origin)
  if (pool === undefined) {
    pool = new Pool(origin, { connections: 256, keepAliveTimeout: 60_000 })
    pools.set(origin, pool)
  }
  return pool
}

export interface PhaseResult {
  readonly name: string
  readonly stream: boolean
  readonly upstreamLatencyMs: number
  readonly pairs: number
  /** From the schedule's start to the last answer. */
  readonly seconds: number
  readonly scheduledSeconds: number
  readonly direct: Float64Array
  readonly proxied: Float64Array
  /** proxied_k − direct_k. */
  readonly paired: Float64Array
  /** The interceptor's own latency_ms (JSON) or ttft_ms (SSE) of each proxied request, by pair. */
  readonly inside: Float64Array
  /** How late each send was against its schedule, ms. */
  readonly lag: Float64Array
  readonly failures: number
  /** Rollouts the proxied requests went through (opened and closed during the phase). */
  readonly rollouts: number
  readonly cpu: PhaseCpu
  /** The interceptor's event-loop delay and GC pauses during the phase. */
  readonly pauses: Pauses
  /** Involuntary context switches of the interceptor process during the phase. */
  readonly preempted: number
  readonly proxiedSentAt: Float64Array
}

/**
 * One open-loop measurement: `pairs` pairs at RATE pairs/s; in pair k the direct and the proxied request
 * go out half a period apart, in random order. Nothing waits for an answer before sending the next one.
 */
export const openLoop = async (
  name: string,
  interceptor: InterceptorProcess,
  upstream: Upstream,
  upstreamPids: ReadonlyArray<number>,
  seconds: number,
  stream: boolean,
  runId: string,
  api: BenchApi = "chat_completions",
): Promise<PhaseResult> => {
  const pairs = Math.max(1, Math.round(seconds * RATE))
  const direct = new Float64Array(pairs)
  const proxied = new Float64Array(pairs)
  /** Epoch ms at which each proxied request went out, to line it up with the interceptor's stalls. */
  const proxiedSentAt = new Float64Array(pairs).fill(Number.NaN)
  const inside = new Float64Array(pairs).fill(Number.NaN)
  const lag = new Float64Array(pairs * 2)
  let failures = 0
  let recorded = 0
  let notReady = 0
  const period = 1000 / RATE
  const proxiedFirst = Array.from({ length: pairs }, () => Math.random() < 0.5)
  const time = stream ? timeStream : timeJson
  const pending: Array<Promise<void>> = []
  const directPool = poolFor(upstream.origin)
  const proxyPool = poolFor(interceptor.origin)

  // CIDS rollouts open at a time (slots); each takes CALLS_PER_ROLLOUT proxied requests, then is closed and
  // replaced, as a run's rollouts are. The next rollout of a slot is opened while the current one runs.
  const slots: Array<Array<Generation>> = Array.from({ length: CIDS }, () => [])
  let opened = 0
  const openGeneration = (): Generation => {
    const seed = opened++
    const generation: Generation = {
      opening: interceptor
        .open({ runId, rolloutId: `${runId}-seed-${seed}`, seed, attempt: 0 }, upstream)
        .then(({ cid }) => {
          generation.cid = cid
          return cid
        }),
      cid: null,
      pairs: [],
      completed: 0,
      sealed: false,
      closing: null,
    }
    return generation
  }
  const closeIfDone = (generation: Generation) => {
    if (!generation.sealed || generation.completed < generation.pairs.length || generation.closing !== null) return
    generation.closing = generation.opening.then(async (cid) => {
      const closed = await interceptor.close(cid, true)
      recorded += closed.calls
      if (closed.ok !== generation.pairs.length) failures += Math.abs(generation.pairs.length - closed.ok)
      const own = stream ? closed.ttfts! : closed.latencies!
      generation.pairs.forEach((k, i) => {
        if (own[i] !== undefined && own[i]! >= 0) inside[k] = own[i]!
      })
    })
  }
  for (const slot of slots) slot.push(openGeneration(), openGeneration())
  await Promise.all(slots.flatMap((slot) => slot.map((g) => g.opening)))

  /** The rollout pair k's proxied request goes to: slot k % CIDS, its (k / CIDS / CALLS_PER_ROLLOUT)-th. */
  const generationFor = (k: number): Generation => {
    const slot = slots[k % CIDS]!
    const index = Math.floor(Math.floor(k / CIDS) / CALLS_PER_ROLLOUT)
    if (index > 0 && slot[index - 1]!.sealed === false) {
      slot[index - 1]!.sealed = true
      closeIfDone(slot[index - 1]!)
    }
    while (slot.length < index + 2) slot.push(openGeneration())
    return slot[index]!
  }

  const fire = (slot: number, scheduled: number) => {
    const k = slot >> 1
    const isProxied = (slot & 1) === 0 ? proxiedFirst[k]! : !proxiedFirst[k]!
    const bodies = BODIES[api][k % BODIES[api].length]!
    const body = stream ? bodies.sse : bodies.json
    const into = isProxied ? proxied : direct
    let request: Promise<Timing>
    let generation: Generation | null = null
    if (isProxied) {
      generation = generationFor(k)
      generation.pairs.push(k)
      const cid = generation.cid
      if (cid === null) notReady++
      lag[slot] = performance.now() - scheduled
      request =
        cid === null
          ? generation.opening.then((late) => time(proxyPool, `/${late}/v1${API_PATH[api]}`, body, api))
          : time(proxyPool, `/${cid}/v1${API_PATH[api]}`, body, api)
    } else {
      lag[slot] = performance.now() - scheduled
      request = time(directPool, `${upstream.basePath}${API_PATH[api]}`, body, api)
    }
    pending.push(
      request
        .then(
          (t) => {
            into[k] = t.ms
            if (isProxied) proxiedSentAt[k] = performance.timeOrigin + t.t0
            if (!t.ok) failures++
          },
          () => {
            into[k] = Number.NaN
            failures++
          },
        )
        .then(() => {
          if (generation === null) return
          generation.completed++
          closeIfDone(generation)
        }),
    )
  }

  await interceptor.pauses()
  const proxyThread = busiestThread(interceptor.pid)
  const preempted0 = preemptions(interceptor.pid, proxyThread)
  const meter = startPhaseMeter(interceptor.pid, upstreamPids)
  const t0 = performance.now() + 10
  const slotTime = (slot: number) => t0 + (slot >> 1) * period + (slot & 1) * (period / 2)
  await new Promise<void>((resolve) => {
    let next = 0
    const tick = () => {
      const now = performance.now()
      while (next < pairs * 2 && slotTime(next) <= now) {
        fire(next, slotTime(next))
        next++
      }
      if (next < pairs * 2) setTimeout(tick, Math.max(0, slotTime(next) - performance.now()))
      else resolve()
    }
    setTimeout(tick, 10)
  })
  await Promise.all(pending)
  const cpu = meter()
  const pauses = await interceptor.pauses()
  const preempted = preemptions(interceptor.pid, proxyThread) - preempted0

  // Close what is left (the last rollout of each slot, and the spare opened ahead), then account.
  for (const slot of slots) {
    for (const generation of slot) {
      generation.sealed = true
      closeIfDone(generation)
    }
  }
  await Promise.all(slots.flatMap((slot) => slot.map((g) => g.closing)))
  const rollouts = slots.reduce((n, slot) => n + slot.filter((g) => g.pairs.length > 0).length, 0)
  if (recorded !== pairs) log(`  warning: the interceptor recorded ${recorded} calls for ${pairs} proxied requests`)
  if (notReady > 0) log(`  note: ${notReady} proxied requests waited for their rollout to open`)

  const paired = new Float64Array(pairs)
  for (let k = 0; k < pairs; k++) paired[k] = proxied[k]! - direct[k]!
  return {
    name,
    stream,
    upstreamLatencyMs: upstream.latencyMs,
    pairs,
    seconds: cpu.seconds,
    scheduledSeconds: pairs / RATE,
    direct,
    proxied,
    paired,
    inside,
    lag,
    failures,
    rollouts,
    cpu,
    pauses,
    preempted,
    proxiedSentAt,
  }
}

export const finite = (xs: Float64Array) => xs.filter((x) => Number.isFinite(x))
