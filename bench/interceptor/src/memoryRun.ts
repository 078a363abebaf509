import { log, mib, procMemory } from "@proctor/bench-shared"
import { Pool } from "undici"
import { type InterceptorProcess, type PhaseCpu, startPhaseMeter, type Upstream } from "./processes.js"
import { BODIES, timeJson, timeStream } from "./requests.js"
import { MEMORY_CALLS, MEMORY_CONCURRENCY, MEMORY_ROLLOUTS, MEMORY_SAMPLES } from "./settings.js"

export interface MemorySample {
  readonly calls: number
  readonly rollouts: number
  readonly rss: number
  readonly heapUsed: number
  readonly heapUsedAfterGc: number
  readonly rssAfterGc: number
  readonly openRollouts: number
  readonly inFlight: number
}

export interface MemoryResult {
  readonly samples: ReadonlyArray<MemorySample>
  readonly calls: number
  readonly rollouts: number
  readonly seconds: number
  readonly failures: number
  readonly peakRss: number | null
  readonly cpu: PhaseCpu
}

/**
 * MEMORY_CALLS calls across MEMORY_ROLLOUTS rollouts (open → calls → close), MEMORY_CONCURRENCY rollouts at
 * a time, every fourth call streamed. Between batches (every MEMORY_CALLS / 10 calls) nothing is open: the
 * interceptor's RSS and heapUsed are read as they are, then again after a full GC.
 */
export const memoryRun = async (interceptor: InterceptorProcess, upstream: Upstream): Promise<MemoryResult> => {
  const callsPerRollout = Math.max(1, Math.round(MEMORY_CALLS / MEMORY_ROLLOUTS))
  const rolloutsPerBatch = Math.max(1, Math.round(MEMORY_ROLLOUTS / MEMORY_SAMPLES))
  const pool = new Pool(interceptor.origin, { connections: MEMORY_CONCURRENCY * 2, keepAliveTimeout: 60_000 })
  const samples: Array<MemorySample> = []
  let calls = 0
  let rolloutsDone = 0
  let failures = 0
  const sample = async () => {
    const before = await interceptor.memory(false)
    const after = await interceptor.memory(true)
    samples.push({
      calls,
      rollouts: rolloutsDone,
      rss: before.rss,
      heapUsed: before.heapUsed,
      heapUsedAfterGc: after.heapUsed,
      rssAfterGc: after.rss,
      openRollouts: after.openRollouts,
      inFlight: after.inFlight,
    })
  }
  const oneRollout = async (index: number) => {
    const runId = "bench-memory"
    const { cid } = await interceptor.open(
      { runId, rolloutId: `${runId}-seed-${index}`, seed: index, attempt: 0 },
      upstream,
    )
    const path = `/${cid}/v1/chat/completions`
    for (let i = 0; i < callsPerRollout; i++) {
      const bodies = BODIES.chat_completions[(index + i) % BODIES.chat_completions.length]!
      const stream = i % 4 === 3
      const timing = await (stream ? timeStream(pool, path, bodies.sse) : timeJson(pool, path, bodies.json)).catch(
        () => ({ ms: 0, ok: false }),
      )
      if (!timing.ok) failures++
    }
    const closed = await interceptor.close(cid, false)
    if (closed.calls !== callsPerRollout || closed.ok !== callsPerRollout) failures++
    calls += callsPerRollout
    rolloutsDone++
  }
  const meter = startPhaseMeter(interceptor.pid, [upstream.pid])
  await sample()
  let started = 0
  for (let batch = 0; batch < MEMORY_SAMPLES; batch++) {
    const end = Math.min(MEMORY_ROLLOUTS, (batch + 1) * rolloutsPerBatch)
    const worker = async () => {
      while (started < end) await oneRollout(started++)
    }
    await Promise.all(Array.from({ length: MEMORY_CONCURRENCY }, worker))
    await sample()
    const s = samples[samples.length - 1]!
    log(
      `  ${calls.toLocaleString("en-US")} calls, ${rolloutsDone} rollouts: RSS ${mib(s.rss)} MiB, heapUsed ` +
        `${mib(s.heapUsed)} MiB (${mib(s.heapUsedAfterGc)} MiB after GC), open ${s.openRollouts}, in flight ${s.inFlight}`,
    )
  }
  const cpu = meter()
  await pool.close()
  return {
    samples,
    calls,
    rollouts: rolloutsDone,
    seconds: cpu.seconds,
    failures,
    peakRss: procMemory(interceptor.pid)?.hwm ?? null,
    cpu,
  }
}
