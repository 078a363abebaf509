/**
 * interceptor: the latency the inference interceptor adds to a model call, and whether its memory stays flat.
 *
 * Three kinds of process, so none shares an event loop with another:
 *   - the upstream: the baseline model (`examples/baseline-model/dist/main.js`), one with no added latency
 *     and one with 20 ms;
 *   - the interceptor: an `Interceptor` with proctor's pricing on the process's main thread, as `proctor eval`
 *     runs it (`interceptorProcess.ts`), driven over IPC to open and close rollouts;
 *   - this process: the load generator.
 *
 * Latency: an open-loop schedule (fixed send times, not closed-loop) of RATE proxied requests/s through
 * the interceptor interleaved with RATE direct requests/s to the same upstream: pair k sends one of each,
 * half a period apart, in random order, so both see the same machine. Per request: the time from send to
 * the last byte (JSON) or to the first content delta (SSE). Reported: percentiles of direct and proxied,
 * their difference (added), and percentiles of the paired differences (proxied_k − direct_k).
 *
 * CPU per call: after each phase, the same schedule with the probe's timer stopped, in slices each followed by the
 * same slice through a bare proxy (`bareProxyProcess.ts`: node:http in, undici out, nothing parsed or recorded, in
 * its own process), the floor a Node proxy cannot go under on this machine; the interceptor's CPU is reported
 * beside it, as a ratio (alternating, so the machine's drift over minutes moves both alike).
 *
 * The agents' APIs: the same latency phases (JSON, SSE time to first text) for the Responses API (Codex CLI) and
 * Anthropic messages (Claude Code), upstream +0 ms, the interceptor's added latency judged by the same targets. CPU
 * per call is measured on chat completions only (the bare proxy forwards that API alone).
 *
 * Memory: 100,000 calls through the interceptor across 1,000 rollouts (open → 100 calls → close), with
 * RSS and heapUsed of the interceptor process sampled after every 10,000 calls, and the slope fitted.
 *
 * Writes the `## interceptor` section of bench/RESULTS.md (other sections are kept).
 *
 * Flags: --rate N (proxied requests/s, direct the same; default 500), --duration S (JSON phase, default 25),
 * --stream-duration S (default 15), --slow-duration S (the 20 ms upstream, JSON and SSE each; 0 skips it;
 * default 8), --api-duration S (each agent API phase, JSON and SSE; 0 skips them; default 10), --warmup S (default 3), --cpu-duration S (after each phase, the same schedule with the event-loop
 * probe's timer stopped, where CPU per call is measured; 0 skips it; default 9), --cpu-slices N (that time cut
 * into N slices, each followed by its slice through the bare proxy; default 3), --cids N (rollouts open at a time during the latency phases; default 50),
 * --calls-per-rollout N (proxied calls per rollout in the latency phases before it is closed; default 20),
 * --memory-calls N (default 100000), --memory-rollouts N (default 1000), --memory-concurrency N (default 16),
 * --quiet-wait S (default 20), --no-write, --interceptor-prof DIR (run the interceptor with --cpu-prof),
 * --interceptor-flags "FLAGS" (more node/V8 flags for the interceptor process, for experiments).
 */
import { describeProctor, loads, log, publishSection, waitForQuiet } from "@proctor/bench-shared"
import { type MemoryResult, memoryRun } from "./memoryRun.js"
import { openLoop, type PhaseResult, pools } from "./openLoop.js"
import { startInterceptorProcess, startUpstream, type Upstream } from "./processes.js"
import { type CpuSlices, describePhase, type PhaseStats, renderSection, statsOf } from "./report.js"
import type { BenchApi } from "./requests.js"
import {
  API_DURATION_S,
  CPU_DURATION_S,
  CPU_SLICES,
  DURATION_S,
  MEMORY_CALLS,
  MEMORY_ROLLOUTS,
  QUIET_WAIT_S,
  RATE,
  SECTION,
  SLOW_DURATION_S,
  SLOW_LATENCY_MS,
  STREAM_DURATION_S,
  WARMUP_S,
} from "./settings.js"

const main = async () => {
  const startedAt = new Date()
  const loadBefore = loads()
  const fast = await startUpstream(0)
  const slow = SLOW_DURATION_S > 0 ? await startUpstream(SLOW_LATENCY_MS) : null
  const interceptor = await startInterceptorProcess()
  // The floor beside the interceptor's CPU: a proxy that only forwards, on the same schedules.
  const bare = CPU_DURATION_S > 0 ? await startInterceptorProcess(true) : null
  const upstreamPids = [fast.pid, ...(slow === null ? [] : [slow.pid])]
  try {
    log(
      `upstream ${fast.url}${slow === null ? "" : ` (+${SLOW_LATENCY_MS} ms: ${slow.url})`}, interceptor ` +
        `${interceptor.url} (pid ${interceptor.pid}); ${RATE} proxied + ${RATE} direct requests/s; ` +
        `load average ${loadBefore}`,
    )
    const quiet = () => waitForQuiet([interceptor.pid, ...upstreamPids], { maxSeconds: QUIET_WAIT_S, inARow: 3 })
    const phase = async (
      name: string,
      upstream: Upstream,
      seconds: number,
      stream: boolean,
      api: BenchApi = "chat_completions",
    ) => {
      if (WARMUP_S > 0)
        await openLoop(`${name} warm-up`, interceptor, upstream, upstreamPids, WARMUP_S, stream, "bench-warmup", api)
      await quiet()
      const latency = await openLoop(name, interceptor, upstream, upstreamPids, seconds, stream, "bench-latency", api)
      let cpu: CpuSlices | null = null
      if (CPU_DURATION_S > 0 && api === "chat_completions") {
        if (bare !== null && WARMUP_S > 0)
          await openLoop(
            `${name}, bare proxy warm-up`,
            bare,
            upstream,
            upstreamPids,
            WARMUP_S,
            stream,
            "bench-bare-warmup",
          )
        await interceptor.ticking(false)
        const own: Array<PhaseResult> = []
        const floor: Array<PhaseResult> = []
        const sliceSeconds = CPU_DURATION_S / CPU_SLICES
        for (let slice = 1; slice <= CPU_SLICES; slice++) {
          await quiet()
          const label = `${name}, CPU ${slice}/${CPU_SLICES}`
          own.push(await openLoop(label, interceptor, upstream, upstreamPids, sliceSeconds, stream, "bench-cpu"))
          if (bare !== null)
            floor.push(
              await openLoop(`${label}, bare proxy`, bare, upstream, upstreamPids, sliceSeconds, stream, "bench-bare"),
            )
        }
        await interceptor.ticking(true)
        cpu = { own, bare: floor }
      }
      const result = statsOf(latency, cpu)
      log(`${name}: ${describePhase(result)}`)
      return result
    }
    const phases: Array<PhaseStats> = []
    if (DURATION_S > 0) phases.push(await phase("JSON, upstream +0 ms", fast, DURATION_S, false))
    if (STREAM_DURATION_S > 0) phases.push(await phase("SSE TTFT, upstream +0 ms", fast, STREAM_DURATION_S, true))
    if (slow !== null) {
      phases.push(await phase(`JSON, upstream +${SLOW_LATENCY_MS} ms`, slow, SLOW_DURATION_S, false))
      phases.push(await phase(`SSE TTFT, upstream +${SLOW_LATENCY_MS} ms`, slow, SLOW_DURATION_S, true))
    }
    if (API_DURATION_S > 0) {
      phases.push(await phase("Responses JSON, upstream +0 ms", fast, API_DURATION_S, false, "responses"))
      phases.push(await phase("Responses SSE TTFT, upstream +0 ms", fast, API_DURATION_S, true, "responses"))
      phases.push(await phase("Anthropic messages JSON, upstream +0 ms", fast, API_DURATION_S, false, "messages"))
      phases.push(await phase("Anthropic messages SSE TTFT, upstream +0 ms", fast, API_DURATION_S, true, "messages"))
    }
    let memory: MemoryResult | null = null
    if (MEMORY_CALLS > 0) {
      log(`memory: ${MEMORY_CALLS} calls across ${MEMORY_ROLLOUTS} rollouts`)
      await quiet()
      await interceptor.ticking(false)
      memory = await memoryRun(interceptor, fast)
      await interceptor.ticking(true)
    }
    const section = renderSection(phases, memory, {
      startedAt,
      proctor: describeProctor(),
      loadBefore,
      loadAfter: loads(),
    })
    publishSection(SECTION, section)
  } finally {
    await Promise.all([...pools.values()].map((pool) => pool.close()))
    await interceptor.stop()
    await bare?.stop()
    await fast.stop()
    await slow?.stop()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:interceptor failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
})
