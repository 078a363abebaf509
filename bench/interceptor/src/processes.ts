import { readdirSync, readFileSync } from "node:fs"
import { type CpuReading, ipcClient, jsonLine, printed, startCpuMeter, startProcess } from "@proctor/bench-shared"
import {
  BARE_PROXY_SCRIPT,
  BASELINE_MAIN,
  INTERCEPTOR_FLAGS,
  INTERCEPTOR_SCRIPT,
  PROFILE_DIR,
  UPSTREAM_KEY,
} from "./settings.js"

export interface Upstream {
  readonly pid: number
  /** The baseline model's added latency. */
  readonly latencyMs: number
  /** The OpenAI base URL, `http://127.0.0.1:P/v1`. */
  readonly url: string
  readonly origin: string
  /** The base URL's path (`/v1`): each API's endpoint is under it. */
  readonly basePath: string
  readonly stop: () => Promise<void>
}

/** The baseline model (examples/baseline-model) adding `latencyMs` to every answer, in its own process. */
export const startUpstream = async (latencyMs: number): Promise<Upstream> => {
  const model = await startProcess({
    what: "the baseline model",
    script: BASELINE_MAIN,
    env: { ...process.env, PORT: "0", BASELINE_LATENCY_MS: String(latencyMs) },
    ready: printed(/listening on (http\S+)/),
  })
  const url = model.ready
  const parsed = new URL(url)
  return {
    pid: model.pid,
    latencyMs,
    url,
    origin: parsed.origin,
    basePath: parsed.pathname.replace(/\/+$/, ""),
    stop: model.stop,
  }
}

export interface MemoryReading {
  readonly rss: number
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
  readonly arrayBuffers: number
  readonly openRollouts: number
  readonly inFlight: number
}

export interface InterceptorProcess {
  readonly pid: number
  readonly url: string
  readonly origin: string
  readonly open: (
    rollout: { runId: string; rolloutId: string; seed: number; attempt: number },
    upstream: Upstream,
  ) => Promise<{ cid: string; inferenceUrl: string }>
  readonly close: (
    cid: string,
    detail: boolean,
  ) => Promise<{ calls: number; ok: number; latencies?: number[]; ttfts?: number[] }>
  readonly memory: (gc: boolean) => Promise<MemoryReading>
  /** Event-loop delay and GC pauses since the previous call. */
  readonly pauses: () => Promise<Pauses>
  /** Starts or stops the event-loop probe's timer (stopped while CPU per call is measured). */
  readonly ticking: (on: boolean) => Promise<void>
  readonly stop: () => Promise<void>
}

export interface GcPauses {
  readonly count: number
  readonly ms: number
  readonly max: number
}

export interface Pauses {
  readonly loopDelay: { readonly p50: number; readonly p99: number; readonly max: number }
  readonly minor: GcPauses
  readonly major: GcPauses
  /** Event-loop stalls over 1 ms and GC pauses: [epoch ms start, ms]. */
  readonly stalls: ReadonlyArray<readonly [number, number]>
  readonly gcPauses: ReadonlyArray<readonly [number, number]>
}

/**
 * The interceptor's process (`interceptorProcess.ts`), driven over IPC; or, `bare`, the floor beside it
 * (`bareProxyProcess.ts`: a proxy that only forwards), driven the same way.
 */
export const startInterceptorProcess = async (bare = false): Promise<InterceptorProcess> => {
  const interceptor = await startProcess({
    what: bare ? "the bare proxy" : "the interceptor",
    script: bare ? BARE_PROXY_SCRIPT : INTERCEPTOR_SCRIPT,
    // The heap flag `proctor eval` sets for itself (packages/cli/src/bin.ts), so GC behaves as it does embedded.
    execArgv: bare
      ? []
      : [
          "--expose-gc",
          "--heap-growing-percent=50",
          ...(PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]),
          ...INTERCEPTOR_FLAGS,
        ],
    ipc: true,
    ready: jsonLine<{ url: string }>(),
    // It stops the interceptor and exits once its IPC channel closes.
    stopWith: (child) => {
      if (child.connected) child.disconnect()
      return undefined
    },
  })
  const call = ipcClient(interceptor.child, "the interceptor")
  const url = interceptor.ready.url
  return {
    pid: interceptor.pid,
    url,
    origin: new URL(url).origin,
    open: (rollout, upstream) => call({ op: "open", ...rollout, baseUrl: upstream.url, apiKey: UPSTREAM_KEY }),
    close: (cid, detail) => call({ op: "close", cid, detail }),
    memory: (gc) => call({ op: "memory", gc }),
    pauses: () => call({ op: "pauses" }),
    ticking: async (on) => {
      await call({ op: "tick", on })
    },
    stop: interceptor.stop,
  }
}

/** CPU of the load generator (this process), the interceptor and the upstreams, and of everybody else. */
export interface PhaseCpu extends CpuReading {
  readonly interceptor: number
  readonly upstream: number
}

export const startPhaseMeter = (interceptorPid: number, upstreamPids: ReadonlyArray<number>) => {
  const meter = startCpuMeter([interceptorPid, ...upstreamPids])
  return (): PhaseCpu => {
    const reading = meter()
    const of = (pid: number) => reading.children.get(pid) ?? 0
    return { ...reading, interceptor: of(interceptorPid), upstream: upstreamPids.reduce((a, pid) => a + of(pid), 0) }
  }
}

/** CPU time (user + system, clock ticks) of one thread of a process. */
export const threadTicks = (pid: number, tid: string): number => {
  try {
    // Fields after the parenthesised name: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return 0
  }
}

/** The thread of a process that has used the most CPU: the interceptor's own thread once it has served. */
export const busiestThread = (pid: number): string => {
  let busiest = String(pid)
  let most = -1
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const ticks = threadTicks(pid, tid)
    if (ticks > most) [busiest, most] = [tid, ticks]
  }
  return busiest
}

/** Times the kernel took the CPU away from a thread while it could run (nonvoluntary_ctxt_switches). */
export const preemptions = (pid: number, tid: string): number => {
  try {
    const match = /nonvoluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8"))
    return match === null ? 0 : Number(match[1])
  } catch {
    return 0
  }
}
