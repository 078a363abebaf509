/**
 * interceptor: the latency the inference interceptor adds to a model call, and whether its memory stays flat.
 *
 * Three kinds of process, so none shares an event loop with another:
 *   - the upstream: the baseline model (`examples/baseline-model/dist/main.js`), one with no added latency
 *     and one with 20 ms;
 *   - the interceptor: `startInterceptorWorker` (its own thread) with proctor's pricing, as `proctor eval` runs it
 *     (`interceptorProcess.ts`), driven over IPC to open and close rollouts;
 *   - this process: the load generator.
 *
 * Latency: an open-loop schedule (fixed send times, not closed-loop) of RATE proxied requests/s through
 * the interceptor interleaved with RATE direct requests/s to the same upstream: pair k sends one of each,
 * half a period apart, in random order, so both see the same machine. Per request: the time from send to
 * the last byte (JSON) or to the first content delta (SSE). Reported: percentiles of direct and proxied,
 * their difference (added), and percentiles of the paired differences (proxied_k − direct_k).
 *
 * Memory: 100,000 calls through the interceptor across 1,000 rollouts (open → 100 calls → close), with
 * RSS and heapUsed of the interceptor process sampled after every 10,000 calls, and the slope fitted.
 *
 * Writes the `## interceptor` section of bench/RESULTS.md (other sections are kept).
 *
 * Flags: --rate N (proxied requests/s, direct the same; default 500), --duration S (JSON phase, default 25),
 * --stream-duration S (default 15), --slow-duration S (the 20 ms upstream, JSON and SSE each; 0 skips it;
 * default 8), --warmup S (default 3), --cids N (rollouts open at a time during the latency phases; default 50),
 * --calls-per-rollout N (proxied calls per rollout in the latency phases before it is closed; default 20),
 * --memory-calls N (default 100000), --memory-rollouts N (default 1000), --memory-concurrency N (default 16),
 * --quiet-wait S (default 20), --no-write, --interceptor-prof DIR (run the interceptor with --cpu-prof),
 * --interceptor-flags "FLAGS" (more node/V8 flags for the interceptor process, for experiments).
 */
import { type ChildProcess, fork, spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { cpus, release, totalmem } from "node:os"
import { dirname, join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import {
  argNumber,
  argString,
  cores,
  describeCommit,
  int,
  linearFit,
  loads,
  log,
  machineCpu,
  mib,
  ms,
  type Percentiles,
  percentiles,
  processCpu,
  publishSection,
  QUIET_CORES,
  REPO_ROOT,
  selfCpu,
  sleep,
  verdict,
} from "@proctor/bench-shared"
import { MATH_TOOLS, problemForSeed, SYSTEM_PROMPT } from "@proctor/example-math"
import { Pool } from "undici"

// ---------------------------------------------------------------------------------------------- settings

const RATE = argNumber("--rate", 500)
const DURATION_S = argNumber("--duration", 25)
const STREAM_DURATION_S = argNumber("--stream-duration", 15)
const SLOW_DURATION_S = argNumber("--slow-duration", 8)
const WARMUP_S = argNumber("--warmup", 3)
const CIDS = Math.max(1, Math.round(argNumber("--cids", 50)))
const CALLS_PER_ROLLOUT = Math.max(1, Math.round(argNumber("--calls-per-rollout", 20)))
const MEMORY_CALLS = Math.round(argNumber("--memory-calls", 100_000))
const MEMORY_ROLLOUTS = Math.max(1, Math.round(argNumber("--memory-rollouts", 1_000)))
const MEMORY_CONCURRENCY = Math.max(1, Math.round(argNumber("--memory-concurrency", 16)))
const MEMORY_SAMPLES = 10
const QUIET_WAIT_S = argNumber("--quiet-wait", 20)
const PROFILE_DIR = argString("--interceptor-prof")
/** Extra node/V8 flags for the interceptor process, e.g. "--single-threaded-gc --max-semi-space-size=32". */
const INTERCEPTOR_FLAGS = (argString("--interceptor-flags") ?? "").split(/\s+/).filter((flag) => flag !== "")
const SLOW_LATENCY_MS = 20
const UPSTREAM_KEY = "sk-bench-upstream-key"
const TARGET_P50_MS = 1
const TARGET_P99_MS = 5
/** Flat: the fitted growth of the post-GC heap over 100,000 calls stays under this (a leak of one call's record is KBs per call). */
const FLAT_HEAP_MB_PER_100K = 2
const FLAT_RSS_MB_PER_100K = 10

const here = dirname(fileURLToPath(import.meta.url))
const INTERCEPTOR_SCRIPT = join(here, "interceptorProcess.js")
const BASELINE_MAIN = join(dirname(fileURLToPath(import.meta.resolve("@proctor/example-baseline-model"))), "main.js")
const SECTION = "## interceptor"

const describeProctor = (): string => describeCommit(REPO_ROOT) ?? "(not in a git checkout)"

// ----------------------------------------------------------------------------------- who else uses the CPU

interface CpuReading {
  readonly seconds: number
  /** CPU seconds of each of our processes. */
  readonly self: number
  readonly interceptor: number
  readonly upstream: number
  /** Cores used by every other process on the machine. */
  readonly otherCores: number
  /** Share of the time some runnable task waited for a CPU (Linux PSI, /proc/pressure/cpu "some"); null without PSI. */
  readonly cpuPressure: number | null
}

/** Microseconds some task has waited for a CPU since boot (PSI), or null where the kernel has no PSI. */
const cpuStallMicros = (): number | null => {
  try {
    const match = /^some .*total=(\d+)/m.exec(readFileSync("/proc/pressure/cpu", "utf8"))
    return match === null ? null : Number(match[1])
  } catch {
    return null
  }
}

/** CPU of the bench's own processes, and of everybody else, over one measurement. */
const startCpuMeter = (interceptorPid: number, upstreamPids: ReadonlyArray<number>) => {
  const upstreamCpu = () => upstreamPids.reduce((a, pid) => a + processCpu(pid), 0)
  const busy0 = machineCpu().busy
  const self0 = selfCpu()
  const icpt0 = processCpu(interceptorPid)
  const up0 = upstreamCpu()
  const stall0 = cpuStallMicros()
  const t0 = performance.now()
  return (): CpuReading => {
    const seconds = (performance.now() - t0) / 1000
    const self = selfCpu() - self0
    const interceptor = processCpu(interceptorPid) - icpt0
    const upstream = upstreamCpu() - up0
    const others = machineCpu().busy - busy0 - self - interceptor - upstream
    const stall1 = cpuStallMicros()
    const cpuPressure = stall0 === null || stall1 === null ? null : (stall1 - stall0) / 1e6 / seconds
    return { seconds, self, interceptor, upstream, otherCores: Math.max(0, others / seconds), cpuPressure }
  }
}

/** Waits (up to --quiet-wait seconds) until other processes have used under QUIET_CORES for 3 s in a row. */
const waitForQuiet = async (interceptorPid: number, upstreamPids: ReadonlyArray<number>): Promise<number> => {
  const deadline = performance.now() + QUIET_WAIT_S * 1000
  let quietSeconds = 0
  for (;;) {
    const meter = startCpuMeter(interceptorPid, upstreamPids)
    await sleep(1000)
    const others = meter().otherCores
    quietSeconds = others < QUIET_CORES ? quietSeconds + 1 : 0
    if (quietSeconds >= 3 || performance.now() >= deadline) return others
  }
}

// --------------------------------------------------------------------------------------------- processes

/** Every process this bench started, so an interrupted run leaves none behind. */
const children = new Set<ChildProcess>()
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    process.exit(130)
  })
}

interface Upstream {
  readonly pid: number
  /** The baseline model's added latency. */
  readonly latencyMs: number
  /** The OpenAI base URL, `http://127.0.0.1:P/v1`. */
  readonly url: string
  readonly origin: string
  readonly chatPath: string
  readonly stop: () => Promise<void>
}

const startUpstream = async (latencyMs: number): Promise<Upstream> => {
  const child = spawn(process.execPath, [BASELINE_MAIN], {
    env: { ...process.env, PORT: "0", BASELINE_LATENCY_MS: String(latencyMs) },
    stdio: ["ignore", "pipe", "inherit"],
  })
  children.add(child)
  const url = await new Promise<string>((resolve, reject) => {
    let out = ""
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk
      const match = /listening on (http\S+)/.exec(out)
      if (match) resolve(match[1]!)
    })
    child.once("exit", (code) => reject(new Error(`the baseline model exited (${code}) before listening`)))
  })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const parsed = new URL(url)
  return {
    pid: child.pid!,
    latencyMs,
    url,
    origin: parsed.origin,
    chatPath: `${parsed.pathname.replace(/\/+$/, "")}/chat/completions`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
      await exited
    },
  }
}

interface MemoryReading {
  readonly rss: number
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
  readonly arrayBuffers: number
  readonly openRollouts: number
  readonly inFlight: number
}

interface InterceptorProcess {
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
  readonly stop: () => Promise<void>
}

interface GcPauses {
  readonly count: number
  readonly ms: number
  readonly max: number
}

interface Pauses {
  readonly loopDelay: { readonly p50: number; readonly p99: number; readonly max: number }
  readonly minor: GcPauses
  readonly major: GcPauses
  /** Event-loop stalls over 1 ms and GC pauses: [epoch ms start, ms]. */
  readonly stalls: ReadonlyArray<readonly [number, number]>
  readonly gcPauses: ReadonlyArray<readonly [number, number]>
}

const startInterceptorProcess = async (): Promise<InterceptorProcess> => {
  // The heap flag `proctor eval` sets for itself (packages/cli/src/bin.ts), so GC behaves as it does embedded.
  const execArgv = [
    "--expose-gc",
    "--heap-growing-percent=50",
    ...(PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]),
    ...INTERCEPTOR_FLAGS,
  ]
  const child: ChildProcess = fork(INTERCEPTOR_SCRIPT, [], { execArgv, stdio: ["ignore", "pipe", "inherit", "ipc"] })
  children.add(child)
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once("line", (line) => {
      lines.close()
      resolve(line)
    })
    child.once("exit", (code) => reject(new Error(`the interceptor exited (${code}) before printing its URL`)))
  })
  const { url } = JSON.parse(firstLine) as { url: string }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  let nextId = 0
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  child.on("message", (raw) => {
    const reply = raw as { id: number; error?: string }
    const entry = waiting.get(reply.id)
    if (entry === undefined) return
    waiting.delete(reply.id)
    if (reply.error !== undefined) entry.reject(new Error(`interceptor: ${reply.error}`))
    else entry.resolve(reply)
  })
  const call = <A>(message: object): Promise<A> =>
    new Promise<A>((resolve, reject) => {
      const id = nextId++
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
      child.send({ id, ...message })
    })
  return {
    pid: child.pid!,
    url,
    origin: new URL(url).origin,
    open: (rollout, upstream) => call({ op: "open", ...rollout, baseUrl: upstream.url, apiKey: UPSTREAM_KEY }),
    close: (cid, detail) => call({ op: "close", cid, detail }),
    memory: (gc) => call({ op: "memory", gc }),
    pauses: () => call({ op: "pauses" }),
    stop: async () => {
      if (child.connected) child.disconnect()
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/** CPU time (user + system, clock ticks) of one thread of a process. */
const threadTicks = (pid: number, tid: string): number => {
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
const busiestThread = (pid: number): string => {
  let busiest = String(pid)
  let most = -1
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const ticks = threadTicks(pid, tid)
    if (ticks > most) [busiest, most] = [tid, ticks]
  }
  return busiest
}

/** Times the kernel took the CPU away from a thread while it could run (nonvoluntary_ctxt_switches). */
const preemptions = (pid: number, tid: string): number => {
  try {
    const match = /nonvoluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8"))
    return match === null ? 0 : Number(match[1])
  } catch {
    return 0
  }
}

/** Peak RSS (VmHWM) of a process, in bytes. */
const peakRss = (pid: number): number | null => {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match === null ? null : Number(match[1]) * 1024
  } catch {
    return null
  }
}

// -------------------------------------------------------------------------------------------- requests

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json",
  authorization: "Bearer task-app-placeholder",
}

/** What the math task app sends on its first turn (system prompt, problem, its two tools), for one seed. */
const chatBody = (seed: number, stream: boolean): string =>
  JSON.stringify({
    model: "gpt-4o-mini",
    temperature: 0,
    tools: MATH_TOOLS,
    // Streams are asked for text, so there are content deltas to time.
    tool_choice: stream ? "none" : "auto",
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: problemForSeed(seed).question },
    ],
    ...(stream ? { stream: true } : {}),
  })

const BODIES = Array.from({ length: 64 }, (_, seed) => ({
  json: chatBody(seed, false),
  sse: chatBody(seed, true),
}))

interface Timing {
  /** Send → last byte (JSON) or → first content delta (SSE), ms. */
  readonly ms: number
  readonly ok: boolean
  /** When it was sent (performance.now()). */
  readonly t0: number
}

const hasContentDelta = (events: string): boolean => {
  for (const event of events.split("\n\n")) {
    if (!event.startsWith("data: ") || event === "data: [DONE]") continue
    try {
      const chunk = JSON.parse(event.slice(6)) as { choices?: Array<{ delta?: { content?: unknown } }> }
      const content = chunk.choices?.[0]?.delta?.content
      if (typeof content === "string" && content !== "") return true
    } catch {
      // a torn event: the rest arrives in the next chunk
    }
  }
  return false
}

const timeJson = async (pool: Pool, path: string, body: string): Promise<Timing> => {
  const t0 = performance.now()
  const res = await pool.request({ method: "POST", path, headers: HEADERS, body })
  const text = await res.body.text()
  const ms = performance.now() - t0
  let ok = res.statusCode === 200
  if (ok) {
    const answer = JSON.parse(text) as { choices?: Array<unknown>; usage?: unknown }
    ok = answer.choices?.[0] !== undefined && answer.usage !== undefined
  }
  return { ms, ok, t0 }
}

/** Time to the first content delta; the rest of the stream is read to the end and checked. */
const timeStream = async (pool: Pool, path: string, body: string): Promise<Timing> => {
  const t0 = performance.now()
  const res = await pool.request({ method: "POST", path, headers: HEADERS, body })
  let ttft: number | null = null
  let seen = ""
  let scanned = 0
  for await (const chunk of res.body) {
    seen += (chunk as Buffer).toString("utf8")
    if (ttft === null) {
      const end = seen.lastIndexOf("\n\n")
      if (end >= scanned) {
        if (hasContentDelta(seen.slice(scanned, end))) ttft = performance.now() - t0
        scanned = end + 2
      }
    }
  }
  const ok = res.statusCode === 200 && ttft !== null && seen.includes("data: [DONE]")
  return { ms: ttft ?? performance.now() - t0, ok, t0 }
}

// ----------------------------------------------------------------------------------------- open loop

/** One rollout of a latency phase: the pairs whose proxied request went under its cid, in send order. */
interface Generation {
  readonly opening: Promise<string>
  cid: string | null
  readonly pairs: Array<number>
  completed: number
  /** The slot moved on to the next rollout: no more requests come under this cid. */
  sealed: boolean
  closing: Promise<void> | null
}

/** Load-generator connection pools, one per origin, kept across phases (warm-ups warm them). */
const pools = new Map<string, Pool>()
const poolFor = (origin: string): Pool => {
  let pool = pools.get(origin)
  if (pool === undefined) {
    pool = new Pool(origin, { connections: 256, keepAliveTimeout: 60_000 })
    pools.set(origin, pool)
  }
  return pool
}

interface PhaseResult {
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
  readonly cpu: CpuReading
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
const openLoop = async (
  name: string,
  interceptor: InterceptorProcess,
  upstream: Upstream,
  upstreamPids: ReadonlyArray<number>,
  seconds: number,
  stream: boolean,
  runId: string,
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
    const body = stream ? BODIES[k % BODIES.length]!.sse : BODIES[k % BODIES.length]!.json
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
          ? generation.opening.then((late) => time(proxyPool, `/${late}/v1/chat/completions`, body))
          : time(proxyPool, `/${cid}/v1/chat/completions`, body)
    } else {
      lag[slot] = performance.now() - scheduled
      request = time(directPool, upstream.chatPath, body)
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
  const meter = startCpuMeter(interceptor.pid, upstreamPids)
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

const finite = (xs: Float64Array) => xs.filter((x) => Number.isFinite(x))

// --------------------------------------------------------------------------------------------- memory

interface MemorySample {
  readonly calls: number
  readonly rollouts: number
  readonly rss: number
  readonly heapUsed: number
  readonly heapUsedAfterGc: number
  readonly rssAfterGc: number
  readonly openRollouts: number
  readonly inFlight: number
}

interface MemoryResult {
  readonly samples: ReadonlyArray<MemorySample>
  readonly calls: number
  readonly rollouts: number
  readonly seconds: number
  readonly failures: number
  readonly peakRss: number | null
  readonly cpu: CpuReading
}

/**
 * MEMORY_CALLS calls across MEMORY_ROLLOUTS rollouts (open → calls → close), MEMORY_CONCURRENCY rollouts at
 * a time, every fourth call streamed. Between batches (every MEMORY_CALLS / 10 calls) nothing is open: the
 * interceptor's RSS and heapUsed are read as they are, then again after a full GC.
 */
const memoryRun = async (interceptor: InterceptorProcess, upstream: Upstream): Promise<MemoryResult> => {
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
      const bodies = BODIES[(index + i) % BODIES.length]!
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
  const meter = startCpuMeter(interceptor.pid, [upstream.pid])
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
    peakRss: peakRss(interceptor.pid),
    cpu,
  }
}

// ------------------------------------------------------------------------------------------------ report

const signed = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? "+" : ""}${x.toFixed(2)}` : "–")
const pct = (x: number) => `${(x * 100).toFixed(0)}%`

/** Whether the slowest proxied requests coincide with the interceptor stalling, against how often any does. */
interface TailAttribution {
  /** Pairs whose paired difference is at or above its p99. */
  readonly tail: number
  /** Share of tail / all proxied requests whose time in flight overlaps an interceptor stall ≥ STALL_FOR_TAIL_MS. */
  readonly tailStalled: number
  readonly allStalled: number
  /** The same for GC pauses ≥ STALL_FOR_TAIL_MS. */
  readonly tailGc: number
  readonly allGc: number
  /** Median over the tail of (stall time overlapping the request) ÷ (its paired difference). */
  readonly explained: number
}

const STALL_FOR_TAIL_MS = 2

/** Total overlap (ms) of [from, to] with events ≥ minMs (sorted by start). */
const overlap = (events: ReadonlyArray<readonly [number, number]>, from: number, to: number, minMs: number) => {
  let total = 0
  for (const [start, ms] of events) {
    if (start > to) break
    if (ms < minMs) continue
    const end = start + ms
    if (end > from) total += Math.min(end, to) - Math.max(start, from)
  }
  return total
}

const attribute = (phase: PhaseResult, pairedP99: number): TailAttribution => {
  const stalls = [...phase.pauses.stalls].sort((a, b) => a[0] - b[0])
  const gcs = [...phase.pauses.gcPauses].sort((a, b) => a[0] - b[0])
  let all = 0
  let allStalled = 0
  let allGc = 0
  let tail = 0
  let tailStalled = 0
  let tailGc = 0
  const explained: Array<number> = []
  for (let k = 0; k < phase.pairs; k++) {
    const from = phase.proxiedSentAt[k]!
    const ms = phase.proxied[k]!
    if (!Number.isFinite(from) || !Number.isFinite(ms)) continue
    const to = from + ms
    const stalled = overlap(stalls, from, to, STALL_FOR_TAIL_MS)
    const gc = overlap(gcs, from, to, STALL_FOR_TAIL_MS)
    all++
    if (stalled > 0) allStalled++
    if (gc > 0) allGc++
    if (phase.paired[k]! >= pairedP99) {
      tail++
      if (stalled > 0) tailStalled++
      if (gc > 0) tailGc++
      explained.push(Math.min(1, stalled / Math.max(phase.paired[k]!, 1e-9)))
    }
  }
  explained.sort((a, b) => a - b)
  return {
    tail,
    tailStalled: tail === 0 ? 0 : tailStalled / tail,
    allStalled: all === 0 ? 0 : allStalled / all,
    tailGc: tail === 0 ? 0 : tailGc / tail,
    allGc: all === 0 ? 0 : allGc / all,
    explained: explained.length === 0 ? 0 : explained[Math.floor(explained.length / 2)]!,
  }
}

interface PhaseStats {
  readonly attribution: TailAttribution
  readonly phase: PhaseResult
  readonly direct: Percentiles
  readonly proxied: Percentiles
  readonly paired: Percentiles
  readonly inside: Percentiles
  readonly outside: Percentiles
  readonly lag: Percentiles
}

const statsOf = (phase: PhaseResult): PhaseStats => {
  const outside = new Float64Array(phase.pairs)
  for (let k = 0; k < phase.pairs; k++) outside[k] = phase.proxied[k]! - phase.inside[k]!
  const paired = percentiles(finite(phase.paired))
  return {
    phase,
    attribution: attribute(phase, paired.p99),
    direct: percentiles(finite(phase.direct)),
    proxied: percentiles(finite(phase.proxied)),
    paired,
    inside: percentiles(finite(phase.inside)),
    outside: percentiles(finite(outside)),
    lag: percentiles(phase.lag),
  }
}

/** The open loop fell behind: sends went out late, or answers kept arriving long after the last send. */
const isOverloaded = (s: PhaseStats) => s.lag.p99 > 10 || s.phase.seconds > s.phase.scheduledSeconds * 1.1 + 0.5

const targetLine = (label: string, target: number, s: PhaseStats, at: (p: Percentiles) => number) => {
  const added = at(s.proxied) - at(s.direct)
  const paired = at(s.paired)
  if (isOverloaded(s)) {
    return (
      `- ${label} ≤ ${target} ms: ${signed(added)} ms (paired ${signed(paired)} ms) — **not measured**: the ` +
      "machine was overloaded in this phase (see below)."
    )
  }
  return (
    `- ${label} ≤ ${target} ms: ${signed(added)} ms (paired ${signed(paired)} ms) — ${verdict(added <= target)}` +
    `${added <= target && paired > target ? " (not by the paired differences)" : ""}.`
  )
}

interface RunInfo {
  readonly startedAt: Date
  readonly proctor: string
  readonly loadBefore: string
  readonly loadAfter: string
}

const renderSection = (phases: ReadonlyArray<PhaseStats>, memory: MemoryResult | null, info: RunInfo): string => {
  const cpu = cpus()
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const lines: Array<string> = [
    SECTION,
    "",
    `Measured ${info.startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC with ` +
      "`npx -y pnpm@10 run bench:interceptor` (bench/interceptor)" +
      (process.argv.length > 2
        ? ` as \`node bench/interceptor/dist/main.js ${process.argv.slice(2).join(" ")}\``
        : "") +
      `; proctor at ${info.proctor}.`,
    "",
    `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
      `Linux ${release()}, Node ${process.version}. Load generator, interceptor and upstream are three processes ` +
      `sharing the cores. Load average (1/5/15 min) at the start: ${info.loadBefore}; at the end: ${info.loadAfter}.`,
    "",
    "Setup: the upstream is the baseline model (`examples/baseline-model`, fastify) in its own process, with no " +
      `added latency (and a second one with ${SLOW_LATENCY_MS} ms); the interceptor is \`startInterceptorWorker\` ` +
      "(a worker thread of its own, with proctor's pricing and its default 12 MiB young generation) in another " +
      "process, as `proctor eval` runs it (there the process is the runner's; here its main thread only relays " +
      "the bench's IPC), with an upstream key configured and " +
      `${CIDS} rollouts open at a time during each phase, each taking ${CALLS_PER_ROLLOUT} proxied calls before it is ` +
      "closed and replaced (open and close over IPC, as a run's rollouts come and go); this process is the load generator " +
      "(undici `Pool`s). Each phase is an **open loop**: a fixed schedule of " +
      `${RATE} proxied requests/s through the interceptor interleaved with ${RATE} direct requests/s to the same ` +
      "upstream — pair k sends one of each, half a period apart, in random order — so both see the same machine. " +
      "Bodies are the math task app's first turn (system prompt, problem, its two tools, `gpt-4o-mini`); SSE " +
      "requests ask for text (`tool_choice: none`) without `include_usage`, so the interceptor adds it and filters " +
      "the usage chunk. Latency is from send to the last byte (JSON) or to the first content delta (SSE, time to " +
      "first token), measured in the load generator. *added* = proxied percentile − direct percentile; *paired* = " +
      "percentiles of proxied_k − direct_k. *inside* is the interceptor's own `latency_ms`/`ttft_ms` of the call " +
      "(from the body being read to the answer sent); *outside* = proxied − inside, per request (the hop from the " +
      `client into the interceptor and back). A ${WARMUP_S} s warm-up of each kind is discarded.`,
    "",
    "| phase | requests direct + proxied | direct p50 / p90 / p99 (ms) | proxied p50 / p90 / p99 (ms) | added p50 / p90 / p99 (ms) | " +
      "paired p50 / p90 / p99 (ms) | inside p50 / p99 (ms) | outside p50 / p99 (ms) | send lag p99 (ms) | " +
      "CPU µs per proxied call: interceptor / upstream / load generator | others (cores) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...phases.map((s) =>
      row([
        s.phase.name,
        `${int(s.phase.pairs)} + ${int(s.phase.pairs)} (${int(s.phase.rollouts)} rollouts)` +
          `${s.phase.failures > 0 ? ` (**${s.phase.failures} failed**)` : ""}`,
        `${ms(s.direct.p50)} / ${ms(s.direct.p90)} / ${ms(s.direct.p99)}`,
        `${ms(s.proxied.p50)} / ${ms(s.proxied.p90)} / ${ms(s.proxied.p99)}`,
        `**${signed(s.proxied.p50 - s.direct.p50)}** / ${signed(s.proxied.p90 - s.direct.p90)} / ` +
          `**${signed(s.proxied.p99 - s.direct.p99)}**`,
        `${signed(s.paired.p50)} / ${signed(s.paired.p90)} / ${signed(s.paired.p99)}`,
        `${ms(s.inside.p50)} / ${ms(s.inside.p99)}`,
        `${ms(s.outside.p50)} / ${ms(s.outside.p99)}`,
        ms(s.lag.p99),
        [s.phase.cpu.interceptor, s.phase.cpu.upstream / 2, s.phase.cpu.self / 2]
          .map((seconds) => int((seconds / s.phase.pairs) * 1e6))
          .join(" / "),
        cores(s.phase.cpu.otherCores),
      ]),
    ),
    "",
  ]
  lines.push(
    "What stalls the interceptor during each phase: its event-loop delay (sampled every 2 ms), its GC pauses " +
      "on its thread, how often the kernel took that thread's core away while it could run (involuntary context " +
      "switches of the process's busiest thread, the interceptor's), and the machine's CPU pressure (Linux PSI: the share of the time some runnable task — ours or " +
      "anyone's — waited for a core). The last three columns line the interceptor's stalls (its event loop " +
      `late by ${STALL_FOR_TAIL_MS} ms or more, whatever the cause) and GC pauses (${STALL_FOR_TAIL_MS} ms or more) up ` +
      "with the proxied requests in flight: for the slowest 1% by paired difference, against all proxied requests.",
    "",
    "| phase | event-loop delay p50 / p99 / max (ms) | minor GC: count, total, max (ms) | major GC: count, total, max (ms) | preempted (/s) | CPU pressure (some) | slowest 1%: overlap a stall / all requests | slowest 1%: overlap a GC pause / all requests | slowest 1%: share of the excess spent in a stall (median) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...phases.map((s) => {
      const p = s.phase.pauses
      const gc = (g: GcPauses) => `${int(g.count)}, ${g.ms.toFixed(1)}, ${g.max.toFixed(2)}`
      return row([
        s.phase.name,
        `${ms(p.loopDelay.p50)} / ${ms(p.loopDelay.p99)} / ${ms(p.loopDelay.max)}`,
        gc(p.minor),
        gc(p.major),
        int(s.phase.preempted / s.phase.seconds),
        s.phase.cpu.cpuPressure === null ? "–" : `${(s.phase.cpu.cpuPressure * 100).toFixed(0)}%`,
        `${pct(s.attribution.tailStalled)} / ${pct(s.attribution.allStalled)}`,
        `${pct(s.attribution.tailGc)} / ${pct(s.attribution.allGc)}`,
        pct(s.attribution.explained),
      ])
    }),
    "",
  )
  const head = phases.find((s) => !s.phase.stream && s.phase.upstreamLatencyMs === 0)
  if (head !== undefined) {
    const stream = phases.find((s) => s.phase.stream && s.phase.upstreamLatencyMs === 0)
    lines.push(
      "Targets (*added*, upstream with no added latency; the paired figure alongside):",
      "",
      targetLine("JSON: added p50", TARGET_P50_MS, head, (p) => p.p50),
      targetLine("JSON: added p99", TARGET_P99_MS, head, (p) => p.p99),
      ...(stream === undefined
        ? []
        : [
            targetLine("time to first token: added p50", TARGET_P50_MS, stream, (p) => p.p50),
            targetLine("time to first token: added p99", TARGET_P99_MS, stream, (p) => p.p99),
          ]),
      "",
    )
  }
  if (memory !== null) {
    const warm = memory.samples.filter((s) => s.calls >= memory.calls / MEMORY_SAMPLES)
    const xs = warm.map((s) => s.calls)
    const per100k = (ys: ReadonlyArray<number>) => (linearFit(xs, ys).slope * 100_000) / 2 ** 20
    const heapSlope = per100k(warm.map((s) => s.heapUsedAfterGc))
    const rssSlope = per100k(warm.map((s) => s.rssAfterGc))
    const rawHeapSlope = per100k(warm.map((s) => s.heapUsed))
    const rawRssSlope = per100k(warm.map((s) => s.rss))
    const flat = Math.abs(heapSlope) < FLAT_HEAP_MB_PER_100K && Math.abs(rssSlope) < FLAT_RSS_MB_PER_100K
    lines.push(
      `Memory: ${int(memory.calls)} calls through the interceptor across ${int(memory.rollouts)} rollouts ` +
        `(open → ${int(memory.calls / memory.rollouts)} calls → close; ${MEMORY_CONCURRENCY} rollouts at a time, ` +
        "closed loop, every fourth call streamed) against the upstream with no added latency, in " +
        `${memory.seconds.toFixed(1)} s (${int(memory.calls / memory.seconds)} calls/s, ` +
        `${int((memory.cpu.interceptor / memory.calls) * 1e6)} µs interceptor CPU per call, others ` +
        `${cores(memory.cpu.otherCores)} cores)${memory.failures > 0 ? `; **${memory.failures} failures**` : ""}. ` +
        "The interceptor's memory is read over IPC after every " +
        `${int(memory.calls / MEMORY_SAMPLES)} calls, when no rollout is open — as it is, then after a full GC: ` +
        "heapUsed is the heaps of its two threads added up (`process.memoryUsage()` on each: the interceptor's, " +
        "and the one that opened the rollouts and holds each one's calls until it closes), RSS the whole process's.",
      "",
      "| calls | rollouts closed | RSS (MiB) | heapUsed (MiB) | RSS after GC (MiB) | heapUsed after GC (MiB) | open rollouts | in flight |",
      "|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...memory.samples.map((s) =>
        row([
          int(s.calls),
          int(s.rollouts),
          mib(s.rss),
          mib(s.heapUsed),
          mib(s.rssAfterGc),
          mib(s.heapUsedAfterGc),
          String(s.openRollouts),
          String(s.inFlight),
        ]),
      ),
      "",
      `Slope (least squares over the samples from ${int(xs[0] ?? 0)} calls on, i.e. after the first ` +
        `${int(memory.calls / MEMORY_SAMPLES)} as warm-up), in MiB per 100,000 calls: heapUsed after GC ` +
        `**${signed(heapSlope)}**, RSS after GC **${signed(rssSlope)}**; as read without a GC: heapUsed ` +
        `${signed(rawHeapSlope)}, RSS ${signed(rawRssSlope)}. Peak RSS (VmHWM) of the interceptor process over the ` +
        `whole bench: ${memory.peakRss === null ? "unknown" : `${mib(memory.peakRss)} MiB`}.`,
      "",
      `- memory flat over ${int(memory.calls)} calls (fitted growth under ${FLAT_HEAP_MB_PER_100K} MiB of ` +
        `post-GC heap and ${FLAT_RSS_MB_PER_100K} MiB of RSS per 100,000 calls; one call's record is several ` +
        `KB, so keeping them would be hundreds of MiB): ${
          memory.calls < 50_000
            ? "not judged (a short run: its slope, scaled to 100,000 calls, is mostly noise)"
            : verdict(flat && memory.failures === 0)
        }.`,
      "",
    )
  }
  const maxOthers = Math.max(...phases.map((s) => s.phase.cpu.otherCores), memory?.cpu.otherCores ?? 0)
  if (maxOthers > 0.1) {
    lines.push(
      `Other processes used up to ${cores(maxOthers)} cores during some phases: tail percentiles there include ` +
        "waits for a core; the paired differences, taken between requests sent 1 ms apart, are the steadier figure.",
      "",
    )
  }
  const overloaded = phases.filter(isOverloaded)
  if (overloaded.length > 0) {
    lines.push(
      `**Overloaded:** in ${overloaded.map((s) => `"${s.phase.name}"`).join(", ")} the machine did not keep up ` +
        "with the schedule (send lag p99 over 10 ms or the phase ran 10% over its scheduled time): requests " +
        "queued, and the latencies there measure the queue, not the interceptor.",
      "",
    )
  }
  return lines.join("\n")
}

// -------------------------------------------------------------------------------------------------- main

const describePhase = (s: PhaseStats) =>
  `direct p50/p99 ${ms(s.direct.p50)}/${ms(s.direct.p99)} ms, proxied ${ms(s.proxied.p50)}/${ms(s.proxied.p99)} ms, ` +
  `added ${signed(s.proxied.p50 - s.direct.p50)}/${signed(s.proxied.p99 - s.direct.p99)} ms, paired ` +
  `${signed(s.paired.p50)}/${signed(s.paired.p99)} ms, send lag p99 ${ms(s.lag.p99)} ms` +
  `${s.phase.failures > 0 ? `, ${s.phase.failures} FAILED` : ""}; interceptor loop delay p99/max ` +
  `${ms(s.phase.pauses.loopDelay.p99)}/${ms(s.phase.pauses.loopDelay.max)} ms, GC max minor/major ` +
  `${ms(s.phase.pauses.minor.max)}/${ms(s.phase.pauses.major.max)} ms, preempted ` +
  `${int(s.phase.preempted / s.phase.seconds)}/s, slowest 1% in a stall ${pct(s.attribution.tailStalled)} ` +
  `(all ${pct(s.attribution.allStalled)}), in a GC pause ${pct(s.attribution.tailGc)} (all ${pct(s.attribution.allGc)}), CPU pressure ` +
  `${s.phase.cpu.cpuPressure === null ? "–" : `${(s.phase.cpu.cpuPressure * 100).toFixed(0)}%`}; CPU µs/call interceptor ` +
  `${int((s.phase.cpu.interceptor / s.phase.pairs) * 1e6)}, upstream ${int((s.phase.cpu.upstream / s.phase.pairs / 2) * 1e6)}, ` +
  `load generator ${int((s.phase.cpu.self / s.phase.pairs / 2) * 1e6)} (others ${cores(s.phase.cpu.otherCores)} cores)`

const main = async () => {
  const startedAt = new Date()
  const loadBefore = loads()
  const fast = await startUpstream(0)
  const slow = SLOW_DURATION_S > 0 ? await startUpstream(SLOW_LATENCY_MS) : null
  const interceptor = await startInterceptorProcess()
  const upstreamPids = [fast.pid, ...(slow === null ? [] : [slow.pid])]
  try {
    log(
      `upstream ${fast.url}${slow === null ? "" : ` (+${SLOW_LATENCY_MS} ms: ${slow.url})`}, interceptor ` +
        `${interceptor.url} (pid ${interceptor.pid}); ${RATE} proxied + ${RATE} direct requests/s; ` +
        `load average ${loadBefore}`,
    )
    const quiet = async () => {
      const others = await waitForQuiet(interceptor.pid, upstreamPids)
      if (others >= QUIET_CORES)
        log(`  (the machine is busy: other processes use ${cores(others)} cores; measuring anyway)`)
    }
    const phase = async (name: string, upstream: Upstream, seconds: number, stream: boolean) => {
      if (WARMUP_S > 0)
        await openLoop(`${name} warm-up`, interceptor, upstream, upstreamPids, WARMUP_S, stream, "bench-warmup")
      await quiet()
      const result = statsOf(
        await openLoop(name, interceptor, upstream, upstreamPids, seconds, stream, "bench-latency"),
      )
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
    let memory: MemoryResult | null = null
    if (MEMORY_CALLS > 0) {
      log(`memory: ${MEMORY_CALLS} calls across ${MEMORY_ROLLOUTS} rollouts`)
      await quiet()
      memory = await memoryRun(interceptor, fast)
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
