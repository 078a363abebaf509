/**
 * server: how fast the eval job server answers `GET /api/eval/jobs/{id}`, and whether its memory stays flat
 * while it runs a 100,000-rollout job and streams the results back.
 *
 * Four kinds of process, so none shares an event loop with another:
 *   - the job server (`serverProcess.ts`: `createJobServer` over embedded SQLite in a temp data dir), driven
 *     over IPC only to read its memory and to stop it;
 *   - a zero-work task app on bare `node:http` (`zeroWorkTaskApp.ts`);
 *   - a bare fastify server with one route answering the same status body (`bareProcess.ts`), the limit;
 *   - this process: it creates the API key (as `proctor keys create` does, before the server starts), submits
 *     jobs, runs autocannon (programmatic API) and samples the server's /proc/PID/status.
 *
 * 1. Throughput: a small job is run to completion, then autocannon hammers `GET /api/eval/jobs/{id}` (Bearer key)
 *    and the bare route in turn, ROUNDS rounds alternating which goes first; req/s, latency p50/p99, the ratio.
 * 2. Memory, in a fresh server process: a job of 100,000 seeds (max_concurrent 64) with VmRSS/VmHWM sampled every
 *    second while it runs and the server's memory read after a full GC at every tenth of the rows, then its results
 *    streamed as JSONL (`?format=jsonl`, counted and checked row by row, never buffered) STREAMS times while
 *    sampling every 100 ms. Growth with rows is judged on the post-GC readings (see `renderBigJob`).
 *
 * Writes the `## server` section of bench/RESULTS.md (other sections are kept).
 *
 * Flags: --duration S (autocannon per measurement, default 10), --rounds N (default 3), --connections N
 * (default 64), --warmup S (default 3), --seeds N (the big job, default 100000; 0 skips part 2),
 * --concurrency N (its max_concurrent, default 64), --streams N (times the results are streamed, default 3),
 * --quiet-wait S (default 60), --no-write, --server-prof DIR (run the job server with --cpu-prof into DIR).
 */
import { type ChildProcess, fork, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { cpus, release, tmpdir, totalmem } from "node:os"
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
  median,
  mib,
  ms,
  type Percentiles,
  percentiles,
  processCpu,
  publishSection,
  QUIET_CORES,
  REPO_ROOT,
  ratio,
  selfCpu,
  sleep,
  verdict,
  ZERO_WORK_TASK_APP,
} from "@proctor/bench-shared"
import { createApiKey, DEFAULT_MAX_SEEDS_PER_JOB } from "@proctor/server"
import autocannon from "autocannon"
import { request } from "undici"

// ---------------------------------------------------------------------------------------------- settings

const DURATION_S = Math.max(1, Math.round(argNumber("--duration", 10)))
const ROUNDS = Math.max(1, Math.round(argNumber("--rounds", 3)))
const CONNECTIONS = Math.max(1, Math.round(argNumber("--connections", 64)))
const WARMUP_S = Math.round(argNumber("--warmup", 3))
const BIG_SEEDS = Math.round(argNumber("--seeds", 100_000))
const BIG_CONCURRENCY = Math.max(1, Math.round(argNumber("--concurrency", 64)))
const STREAMS = Math.max(1, Math.round(argNumber("--streams", 3)))
const QUIET_WAIT_S = argNumber("--quiet-wait", 60)
const PROFILE_DIR = argString("--server-prof")
const SMALL_SEEDS = 10
const PIPELINING = 1
/**
 * The job server's extra figure: status of the big job, whose aggregate runs over every stored row. One connection,
 * so each request's time is its service time (64 would queue behind one another towards autocannon's timeout).
 */
const BIG_STATUS_DURATION_S = 5
const TARGET_RPS = 5_000
const TARGET_RATIO = 0.5
/** Flat: RSS grows by less than this fraction of what holding every row's JSON text would take. */
const FLAT_FRACTION = 0.25
/** V8 and malloc give freed pages back just after a GC: RSS is read this long after it. */
const AFTER_GC_SETTLE_MS = 100
/** better-sqlite3 opens databases with `cache_size = -16000`: up to this many bytes of page cache. */
const SQLITE_PAGE_CACHE_BYTES = 16_000 * 1024
const JOB_DEADLINE_MS = 20 * 60_000

const here = dirname(fileURLToPath(import.meta.url))
const SERVER_SCRIPT = join(here, "serverProcess.js")
const BARE_SCRIPT = join(here, "bareProcess.js")
const TASK_APP_SCRIPT = ZERO_WORK_TASK_APP
const SECTION = "## server"

const describeProctor = (): string => describeCommit(REPO_ROOT) ?? "(not in a git checkout)"

// ----------------------------------------------------------------------------------- who else uses the CPU

interface CpuReading {
  readonly seconds: number
  /** CPU seconds of this process (the load generator). */
  readonly self: number
  /** CPU seconds of each of the bench's child processes, by pid. */
  readonly children: ReadonlyMap<number, number>
  /** Cores used by every other process on the machine. */
  readonly otherCores: number
}

/** CPU of the bench's own processes, and of everybody else, over one measurement. */
const startCpuMeter = (pids: ReadonlyArray<number>) => {
  const busy0 = machineCpu().busy
  const self0 = selfCpu()
  const child0 = pids.map(processCpu)
  const t0 = performance.now()
  return (): CpuReading => {
    const seconds = (performance.now() - t0) / 1000
    const self = selfCpu() - self0
    const children = new Map(pids.map((pid, i) => [pid, processCpu(pid) - child0[i]!]))
    let ours = self
    for (const s of children.values()) ours += s
    const others = machineCpu().busy - busy0 - ours
    return { seconds, self, children, otherCores: Math.max(0, others / seconds) }
  }
}

const waitForQuiet = async (pids: ReadonlyArray<number>): Promise<number> => {
  const deadline = performance.now() + QUIET_WAIT_S * 1000
  for (;;) {
    const meter = startCpuMeter(pids)
    await sleep(1000)
    const others = meter().otherCores
    if (others < QUIET_CORES || performance.now() >= deadline) {
      if (others >= QUIET_CORES)
        log(`  (the machine is busy: other processes use ${cores(others)} cores; measuring anyway)`)
      return others
    }
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

const firstLineOf = (child: ChildProcess, what: string) =>
  new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once("line", (line) => {
      lines.close()
      resolve(line)
    })
    child.once("exit", (code) => reject(new Error(`${what} exited (${code}) before it was listening`)))
  })

interface PortProcess {
  readonly pid: number
  readonly origin: string
  readonly stop: () => Promise<void>
}

/** A child that prints `{"port": N}` and exits when its stdin closes (the task app, the bare fastify server). */
const startPortProcess = async (what: string, script: string, args: ReadonlyArray<string>): Promise<PortProcess> => {
  const child = spawn(process.execPath, [script, ...args, "--exit-with-stdin"], { stdio: ["pipe", "pipe", "inherit"] })
  children.add(child)
  const { port } = JSON.parse(await firstLineOf(child, what)) as { port: number }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  return {
    pid: child.pid!,
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
      await exited
    },
  }
}

interface MemoryUsage {
  readonly rss: number
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
  readonly arrayBuffers: number
}

interface ServerProcess {
  readonly pid: number
  readonly url: string
  readonly memory: (gc: boolean) => Promise<MemoryUsage>
  readonly stop: () => Promise<void>
}

const startServer = async (dataDir: string, maxSeedsPerJob: number): Promise<ServerProcess> => {
  const settings = {
    dataDir,
    maxSeedsPerJob,
    // The default (burst 120, 20/s per key) would answer this bench with 429s after its first 120 requests:
    // the limiter still runs on every request, with a bucket that never empties.
    rateLimit: { burst: 1e12, perSecond: 1e12 },
  }
  const execArgv = [
    "--expose-gc",
    ...(PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]),
  ]
  const child = fork(SERVER_SCRIPT, [JSON.stringify(settings)], {
    execArgv,
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  })
  children.add(child)
  const { url } = JSON.parse(await firstLineOf(child, "the job server")) as { url: string }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  let nextId = 0
  const waiting = new Map<number, (reply: unknown) => void>()
  child.on("message", (raw) => {
    const reply = raw as { id: number }
    waiting.get(reply.id)?.(reply)
    waiting.delete(reply.id)
  })
  const call = <A>(message: object) =>
    new Promise<A>((resolve) => {
      const id = nextId++
      waiting.set(id, resolve as (reply: unknown) => void)
      child.send({ id, ...message })
    })
  return {
    pid: child.pid!,
    url,
    memory: (gc) => call<MemoryUsage>({ op: "memory", gc }),
    stop: async () => {
      if (child.connected) await call({ op: "stop" })
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000)
      await exited
      clearTimeout(timer)
    },
  }
}

interface ProcMemory {
  /** Bytes. */
  readonly rss: number
  readonly hwm: number
  /** Anonymous memory (heaps, malloc) and file-backed + shared memory (mapped files, SQLite's -shm). */
  readonly anon: number
  readonly fileAndShmem: number
}

const procMemory = (pid: number): ProcMemory => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) * 1024
  return { rss: kb("VmRSS"), hwm: kb("VmHWM"), anon: kb("RssAnon"), fileAndShmem: kb("RssFile") + kb("RssShmem") }
}

// ------------------------------------------------------------------------------------------------ job API

interface StatusBody {
  readonly job_id: string
  readonly status: string
  readonly error: string | null
  readonly started_at: string | null
  readonly completed_at: string | null
  readonly results: { readonly completed: number; readonly total: number; readonly mean_score: number | null }
}

const api = async (server: ServerProcess, key: string, method: "GET" | "POST", path: string, body?: unknown) => {
  const res = await request(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.body.text()
  if (res.statusCode >= 300) throw new Error(`${method} ${path} answered ${res.statusCode}: ${text.slice(0, 500)}`)
  return text
}

const submitJob = async (
  server: ServerProcess,
  key: string,
  taskAppOrigin: string,
  seeds: number,
  concurrency: number,
  timeoutS = 60,
) => {
  const body = {
    task_app_url: taskAppOrigin,
    task_app_api_key: null,
    app_id: "bench",
    env_name: "bench",
    // A list of integers, as synth-ai's client sends them.
    seeds: Array.from({ length: seeds }, (_, i) => i),
    policy: { policy_name: "bench", model: "none" },
    env_config: {},
    mode: "eval",
    max_concurrent: concurrency,
    timeout: timeoutS,
  }
  const { job_id } = JSON.parse(await api(server, key, "POST", "/api/eval/jobs", body)) as { job_id: string }
  return job_id
}

const getStatus = async (server: ServerProcess, key: string, jobId: string) =>
  JSON.parse(await api(server, key, "GET", `/api/eval/jobs/${jobId}`)) as StatusBody

/** Polls every `everyMs` until the job has ended; `onPoll` sees each answer. */
const waitForJob = async (
  server: ServerProcess,
  key: string,
  jobId: string,
  everyMs: number,
  onPoll: (status: StatusBody, ms: number) => void = () => {},
) => {
  const deadline = Date.now() + JOB_DEADLINE_MS
  for (;;) {
    const t0 = performance.now()
    const status = await getStatus(server, key, jobId)
    onPoll(status, performance.now() - t0)
    if (status.status !== "pending" && status.status !== "running") {
      if (status.status !== "completed") throw new Error(`job ${jobId} ended ${status.status}: ${status.error}`)
      return status
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not finish in ${JOB_DEADLINE_MS / 60_000} min`)
    await sleep(everyMs)
  }
}

// ------------------------------------------------------------------------------------------- autocannon

interface LoadResult {
  readonly target: "server" | "bare"
  readonly requests: number
  readonly seconds: number
  readonly rps: number
  /** From every 2xx response's own time (autocannon's `response` event, ms with sub-ms resolution). */
  readonly latency: Percentiles
  /** autocannon's own histogram (whole ms). */
  readonly autocannonP50: number
  readonly autocannonP99: number
  /** Server CPU µs per request (the process answering). */
  readonly serverCpuUs: number
  /** Load generator (this process) CPU µs per request. */
  readonly clientCpuUs: number
  readonly otherCores: number
}

const hammer = (
  target: LoadResult["target"],
  url: string,
  headers: Record<string, string>,
  expectBody: string,
  seconds: number,
  serverPid: number,
  otherPids: ReadonlyArray<number>,
  connections = CONNECTIONS,
): Promise<LoadResult> =>
  new Promise((resolve, reject) => {
    let latencies = new Float64Array(1 << 18)
    let n = 0
    const meter = startCpuMeter([serverPid, ...otherPids])
    const instance = autocannon(
      { url, connections, pipelining: PIPELINING, duration: seconds, headers, expectBody },
      (error, result) => {
        if (error !== null && error !== undefined) return reject(error)
        const cpu = meter()
        const bad = result.non2xx + result.errors + result.timeouts + result.mismatches
        if (bad > 0) {
          return reject(
            new Error(
              `${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts, ` +
                `${result.mismatches} bodies not the expected one (of ${result.requests.total})`,
            ),
          )
        }
        resolve({
          target,
          requests: result.requests.total,
          seconds: result.duration,
          rps: result.requests.total / result.duration,
          latency: percentiles(latencies.subarray(0, n)),
          autocannonP50: result.latency.p50,
          autocannonP99: result.latency.p99,
          serverCpuUs: ((cpu.children.get(serverPid) ?? 0) / result.requests.total) * 1e6,
          clientCpuUs: (cpu.self / result.requests.total) * 1e6,
          otherCores: cpu.otherCores,
        })
      },
    )
    // autocannon 9 emits (client, statusCode, resBytes, responseTime); @types/autocannon omits the client.
    ;(instance as unknown as NodeJS.EventEmitter).on(
      "response",
      (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
        if (statusCode < 200 || statusCode >= 300) return
        if (n === latencies.length) {
          const grown = new Float64Array(latencies.length * 2)
          grown.set(latencies)
          latencies = grown
        }
        latencies[n++] = ms
      },
    )
  })

// ------------------------------------------------------------------------------------------ part 2: memory

interface MemorySample {
  /** Seconds since the job was submitted (run) or the stream started (streaming). */
  readonly t: number
  /** Rows the server had stored (run; from the latest status poll) or sent (streaming; counted by the client). */
  readonly rows: number
  readonly rss: number
  readonly hwm: number
}

/** The server's memory read over IPC after a full GC, at 0, 10%, …, 100% of the job's rows. */
interface Checkpoint extends MemoryUsage {
  readonly rows: number
  /** VmRSS just before the GC. */
  readonly rssBeforeGc: number
  /** /proc/PID/status AFTER_GC_SETTLE_MS after the GC. */
  readonly proc: ProcMemory
}

/** The server's memory after a full GC: its heap figures, and /proc once freed pages have been given back. */
const checkpoint = async (server: ServerProcess, rows: number): Promise<Checkpoint> => {
  const rssBeforeGc = procMemory(server.pid).rss
  const usage = await server.memory(true)
  await sleep(AFTER_GC_SETTLE_MS)
  return { ...usage, rows, rssBeforeGc, proc: procMemory(server.pid) }
}

interface StreamResult {
  readonly rows: number
  readonly bytes: number
  readonly seconds: number
  readonly samples: ReadonlyArray<MemorySample>
  readonly rssBefore: number
  readonly peakRss: number
  readonly rssAfter: number
  readonly afterGc: Checkpoint
  readonly serverCpuUs: number
  readonly otherCores: number
}

interface BigJobResult {
  readonly jobId: string
  readonly seeds: number
  readonly submitSeconds: number
  /** Submit → the poll that saw it completed (1 s polls). */
  readonly clientSeconds: number
  /** The job's own started_at → completed_at. */
  readonly serverSeconds: number
  readonly meanScore: number | null
  readonly samples: ReadonlyArray<MemorySample>
  readonly checkpoints: ReadonlyArray<Checkpoint>
  readonly beforeGc: Checkpoint
  readonly rssStart: number
  readonly rssEnd: number
  readonly afterGc: Checkpoint
  readonly polls: ReadonlyArray<{ readonly rows: number; readonly ms: number }>
  readonly serverCpuS: number
  readonly taskAppCpuS: number
  readonly otherCores: number
  readonly streams: ReadonlyArray<StreamResult>
  readonly statusLoad: LoadResult
  /** Bytes of the big job's status answer (its `config` echoes the seeds). */
  readonly statusBytes: number
  readonly hwmEnd: number
}

const runBigJob = async (server: ServerProcess, key: string, taskApp: PortProcess): Promise<BigJobResult> => {
  const beforeGc = await checkpoint(server, 0)
  const rssStart = beforeGc.proc.rss
  const samples: Array<MemorySample> = []
  const polls: Array<{ rows: number; ms: number }> = []
  const checkpoints: Array<Promise<Checkpoint>> = [Promise.resolve(beforeGc)]
  let nextTenth = 1
  let rows = 0
  const meter = startCpuMeter([server.pid, taskApp.pid])
  const t0 = performance.now()
  const sample = () => samples.push({ t: (performance.now() - t0) / 1000, rows, ...procMemory(server.pid) })
  sample()
  const sampler = setInterval(sample, 1000)
  let jobId: string
  let submitSeconds: number
  let final: StatusBody
  try {
    jobId = await submitJob(server, key, taskApp.origin, BIG_SEEDS, BIG_CONCURRENCY)
    submitSeconds = (performance.now() - t0) / 1000
    log(`  submitted ${jobId} (${BIG_SEEDS} seeds) in ${submitSeconds.toFixed(2)} s`)
    final = await waitForJob(server, key, jobId, 1000, (status, ms) => {
      rows = status.results.completed
      polls.push({ rows, ms })
      if (nextTenth < 10 && rows >= (nextTenth * BIG_SEEDS) / 10) {
        nextTenth = Math.floor((rows * 10) / BIG_SEEDS) + 1
        checkpoints.push(checkpoint(server, rows))
      }
    })
  } finally {
    clearInterval(sampler)
  }
  const clientSeconds = (performance.now() - t0) / 1000
  sample()
  const cpu = meter()
  const rssEnd = procMemory(server.pid).rss
  const afterGc = await checkpoint(server, BIG_SEEDS)
  checkpoints.push(Promise.resolve(afterGc))
  if (final.results.completed !== BIG_SEEDS) throw new Error(`the job stored ${final.results.completed} rows`)
  const serverSeconds = (Date.parse(final.completed_at!) - Date.parse(final.started_at!)) / 1000
  log(
    `  completed in ${serverSeconds.toFixed(1)} s (${int(BIG_SEEDS / serverSeconds)}/s); RSS ${mib(rssStart)} → peak ` +
      `${mib(Math.max(...samples.map((s) => s.rss)))} → ${mib(rssEnd)} MiB; after GC: heapUsed ${mib(beforeGc.heapUsed)} → ` +
      `${mib(afterGc.heapUsed)} MiB, RSS ${mib(beforeGc.proc.rss)} → ${mib(afterGc.proc.rss)} MiB`,
  )

  const streams: Array<StreamResult> = []
  for (let i = 0; i < STREAMS; i++) {
    await waitForQuiet([server.pid, taskApp.pid])
    const stream = await streamResults(server, key, jobId, taskApp.pid)
    log(
      `  stream ${i + 1}: ${int(stream.rows)} rows, ${mib(stream.bytes)} MiB in ${stream.seconds.toFixed(2)} s; RSS ` +
        `${mib(stream.rssBefore)} → peak ${mib(stream.peakRss)} → ${mib(stream.rssAfter)} MiB`,
    )
    streams.push(stream)
  }

  await waitForQuiet([server.pid, taskApp.pid])
  const statusBody = await api(server, key, "GET", `/api/eval/jobs/${jobId}`)
  const statusLoad = await hammer(
    "server",
    `${server.url}/api/eval/jobs/${jobId}`,
    { authorization: `Bearer ${key}` },
    statusBody,
    BIG_STATUS_DURATION_S,
    server.pid,
    [taskApp.pid],
    1,
  )
  log(`  GET status of the ${int(BIG_SEEDS)}-row job: ${describeLoad(statusLoad)}`)

  return {
    jobId,
    seeds: BIG_SEEDS,
    submitSeconds,
    clientSeconds,
    serverSeconds,
    meanScore: final.results.mean_score,
    samples,
    checkpoints: await Promise.all(checkpoints),
    beforeGc,
    rssStart,
    rssEnd,
    afterGc,
    polls,
    serverCpuS: cpu.children.get(server.pid) ?? 0,
    taskAppCpuS: cpu.children.get(taskApp.pid) ?? 0,
    otherCores: cpu.otherCores,
    streams,
    statusLoad,
    statusBytes: Buffer.byteLength(statusBody),
    hwmEnd: procMemory(server.pid).hwm,
  }
}

/** Streams `?format=jsonl`, counting and checking rows chunk by chunk (seeds in order, score = seed % 2). */
const streamResults = async (
  server: ServerProcess,
  key: string,
  jobId: string,
  taskAppPid: number,
): Promise<StreamResult> => {
  const rssBefore = procMemory(server.pid).rss
  const samples: Array<MemorySample> = []
  let rows = 0
  let bytes = 0
  const meter = startCpuMeter([server.pid, taskAppPid])
  const t0 = performance.now()
  const sample = () => samples.push({ t: (performance.now() - t0) / 1000, rows, ...procMemory(server.pid) })
  sample()
  const sampler = setInterval(sample, 100)
  try {
    const res = await request(`${server.url}/api/eval/jobs/${jobId}/results?format=jsonl`, {
      headers: { authorization: `Bearer ${key}` },
    })
    if (res.statusCode !== 200) throw new Error(`results answered ${res.statusCode}: ${await res.body.text()}`)
    let carry = ""
    const check = (line: string) => {
      const row = JSON.parse(line) as { seed: number; status: string; score: number | null }
      if (row.seed !== rows || row.status !== "ok" || row.score !== row.seed % 2) {
        throw new Error(`row ${rows} is not the expected one: ${line.slice(0, 300)}`)
      }
      rows++
    }
    for await (const chunk of res.body) {
      const buffer = chunk as Buffer
      bytes += buffer.length
      const text = carry + buffer.toString("utf8")
      let start = 0
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
        check(text.slice(start, nl))
        start = nl + 1
      }
      carry = text.slice(start)
    }
    if (carry !== "") throw new Error("the stream ended inside a row")
  } finally {
    clearInterval(sampler)
  }
  const seconds = (performance.now() - t0) / 1000
  sample()
  const cpu = meter()
  if (rows !== BIG_SEEDS) throw new Error(`streamed ${rows} rows, expected ${BIG_SEEDS}`)
  const rssAfter = procMemory(server.pid).rss
  return {
    rows,
    bytes,
    seconds,
    samples,
    rssBefore,
    peakRss: Math.max(...samples.map((s) => s.rss)),
    rssAfter,
    afterGc: await checkpoint(server, rows),
    serverCpuUs: ((cpu.children.get(server.pid) ?? 0) / rows) * 1e6,
    otherCores: cpu.otherCores,
  }
}

// ------------------------------------------------------------------------------------------------ report

const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(1)}`

const describeLoad = (r: LoadResult) =>
  `${int(r.rps)} req/s, p50 ${ms(r.latency.p50)} ms, p99 ${ms(r.latency.p99)} ms, server CPU ${int(r.serverCpuUs)} µs/req, ` +
  `client ${int(r.clientCpuUs)} µs/req (others ${cores(r.otherCores)} cores)`

interface Round {
  readonly server: LoadResult
  readonly bare: LoadResult
  readonly serverFirst: boolean
}

interface RunInfo {
  readonly startedAt: Date
  readonly proctor: string
  readonly loadBefore: string
  readonly loadAfter: string
  readonly statusBytes: number
}

/** Rows of fitted growth: least-squares slope of RSS over rows, in MiB per 100,000 rows. */
const slopePer100k = (samples: ReadonlyArray<MemorySample>) => {
  if (samples.length < 3) return Number.NaN
  const fit = linearFit(
    samples.map((s) => s.rows),
    samples.map((s) => s.rss),
  )
  return (fit.slope * 100_000) / 2 ** 20
}

/** At most `max` samples, evenly spaced, always keeping the first, the last and the highest. */
const thin = (samples: ReadonlyArray<MemorySample>, max: number): ReadonlyArray<MemorySample> => {
  if (samples.length <= max) return samples
  let peak = 0
  for (let i = 1; i < samples.length; i++) if (samples[i]!.rss > samples[peak]!.rss) peak = i
  const picked = new Set<number>([0, samples.length - 1, peak])
  for (let k = 1; k < max - 2; k++) picked.add(Math.round((k * (samples.length - 1)) / (max - 2)))
  return [...picked].sort((a, b) => a - b).map((i) => samples[i]!)
}

const renderSection = (
  rounds: ReadonlyArray<Round>,
  running: LoadResult,
  big: BigJobResult | null,
  info: RunInfo,
): string => {
  const cpu = cpus()
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const med = (pick: (r: Round) => number) => median(rounds.map(pick))
  const serverRps = med((r) => r.server.rps)
  const bareRps = med((r) => r.bare.rps)
  const lines: Array<string> = [
    SECTION,
    "",
    `Measured ${info.startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC with ` +
      "`npx -y pnpm@10 run bench:server` (bench/server)" +
      (process.argv.length > 2 ? ` as \`node bench/server/dist/main.js ${process.argv.slice(2).join(" ")}\`` : "") +
      `; proctor at ${info.proctor}.`,
    "",
    `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
      `Linux ${release()}, Node ${process.version}. The load generator (autocannon, in the bench process), the ` +
      "server under test and the task app are separate processes sharing the cores. Load average (1/5/15 min) at " +
      `the start: ${info.loadBefore}; at the end: ${info.loadAfter}.`,
    "",
    "### `GET /api/eval/jobs/{id}` throughput",
    "",
    "Setup: the job server is `createJobServer` (embedded SQLite in a temp data dir, no logger) in its own process; " +
      "the API key is made beforehand with `createApiKey` (as `proctor keys create` does); its per-key rate limit is " +
      "raised to a bucket that never empties (the default, 120 burst and 20/s, would answer 429 after 120 requests) " +
      `so the limiter still runs on every request. A ${SMALL_SEEDS}-seed job against a zero-work task app (bare ` +
      "`node:http`, another process) is run to completion, then autocannon (programmatic API, in the bench process) " +
      `sends \`GET /api/eval/jobs/{id}\` with the Bearer key: ${DURATION_S} s, ${CONNECTIONS} connections, ` +
      `pipelining ${PIPELINING}. The limit is a bare fastify server (its own process) with one route answering the ` +
      `same object, so both serialise the same ${int(info.statusBytes)}-byte JSON body per request; autocannon's ` +
      "`expectBody` checks every answer of both is that body. After a warm-up of " +
      `${WARMUP_S} s each, ${rounds.length} rounds, alternating which goes first. req/s is requests ÷ duration; ` +
      "latencies are percentiles of each 2xx response's own time as autocannon reports it (its `response` event, " +
      "sub-millisecond); *CPU µs/req* is the answering process's user + system CPU per request; *others* is the CPU " +
      "(in cores) of processes other than the bench's own during the measurement. The job has ended, so this is the " +
      "path a finished job's polls take: the server keeps an ended job's serialised status (its row and stats never " +
      "change again) and a key the database returned for 1 s (so a revoked key is refused on this route within " +
      "1 s, on every other route at once); ownership and the rate limit are checked on every request.",
    "",
    "| round | job server req/s | p50 / p99 (ms) | bare fastify req/s | p50 / p99 (ms) | ratio | CPU µs/req: job server / bare | others (cores): job server / bare |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rounds.map((r, i) =>
      row([
        `${i + 1}${r.serverFirst ? "" : " (bare first)"}`,
        int(r.server.rps),
        `${ms(r.server.latency.p50)} / ${ms(r.server.latency.p99)}`,
        int(r.bare.rps),
        `${ms(r.bare.latency.p50)} / ${ms(r.bare.latency.p99)}`,
        ratio(r.server.rps / r.bare.rps),
        `${int(r.server.serverCpuUs)} / ${int(r.bare.serverCpuUs)}`,
        `${cores(r.server.otherCores)} / ${cores(r.bare.otherCores)}`,
      ]),
    ),
    row([
      "**median**",
      `**${int(serverRps)}**`,
      `${ms(med((r) => r.server.latency.p50))} / ${ms(med((r) => r.server.latency.p99))}`,
      int(bareRps),
      `${ms(med((r) => r.bare.latency.p50))} / ${ms(med((r) => r.bare.latency.p99))}`,
      `**${ratio(serverRps / bareRps)}**`,
      `${int(med((r) => r.server.serverCpuUs))} / ${int(med((r) => r.bare.serverCpuUs))}`,
      "",
    ]),
    "",
    `Ratio of each round's job server to its own bare run: ${rounds.map((r) => ratio(r.server.rps / r.bare.rps)).join(", ")}. ` +
      `Load generator CPU per request (median): ${int(med((r) => r.server.clientCpuUs))} µs against the job server, ` +
      `${int(med((r) => r.bare.clientCpuUs))} µs against the bare route.`,
    "",
    `Not a target, for comparison: the status of a job still **running** (one rollout held open by a task app ` +
      "that never answers), answered from the row the server read when the job started and the job's live " +
      `tallies, serialised on every poll: ${int(running.rps)} req/s, p50 ${ms(running.latency.p50)} / p99 ${ms(running.latency.p99)} ms, ` +
      `${int(running.serverCpuUs)} µs server CPU per request (${DURATION_S} s, ${CONNECTIONS} connections, ` +
      `others ${cores(running.otherCores)} cores).`,
    "",
    "Targets:",
    "",
    `- job server ≥ ${int(TARGET_RPS)} requests/s: ${int(serverRps)} (median) — ${verdict(serverRps >= TARGET_RPS)}.`,
    `- job server ≥ ${TARGET_RATIO}× the bare route: ${ratio(serverRps / bareRps)} (ratio of medians) — ` +
      `${verdict(serverRps / bareRps >= TARGET_RATIO)}.`,
    "",
  ]
  if (big !== null) lines.push(...renderBigJob(big))
  const others = [
    ...rounds.flatMap((r) => [r.server.otherCores, r.bare.otherCores]),
    ...(big === null ? [] : [big.otherCores, ...big.streams.map((s) => s.otherCores)]),
  ]
  const maxOthers = Math.max(0, ...others)
  if (maxOthers > 0.1) {
    lines.push(
      `Other processes used up to ${cores(maxOthers)} cores during some measurements: absolute rates there are ` +
        "depressed; the ratio, taken between measurements seconds apart, is the steadier figure.",
      "",
    )
  }
  return lines.join("\n")
}

const renderBigJob = (big: BigJobResult): ReadonlyArray<string> => {
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const runPeak = Math.max(...big.samples.map((s) => s.rss))
  // The job's JSONL is the text of every row: a server that kept the rows would hold at least that much.
  const rowBytes = big.streams[0]?.bytes ?? 0
  const allowance = FLAT_FRACTION * rowBytes
  const warm = big.samples.filter((s) => s.rows >= big.seeds / 10)
  const runSlope = slopePer100k(warm)
  const runGrowth = runPeak - big.rssStart
  /** Growth over `fraction` of the job's rows, fitted over the post-GC checkpoints at or after `from` × rows, in bytes. */
  const fittedGrowth = (from: number, pick: (c: Checkpoint) => number) => {
    const points = big.checkpoints.filter((c) => c.rows >= from * big.seeds)
    if (points.length < 3) return Number.NaN
    const fit = linearFit(
      points.map((c) => c.rows),
      points.map(pick),
    )
    return fit.slope * big.seeds * (1 - from)
  }
  const heapFitted = fittedGrowth(0.1, (c) => c.heapUsed)
  const rssFitted = fittedGrowth(0.1, (c) => c.proc.rss)
  const rssSecondHalf = fittedGrowth(0.5, (c) => c.proc.rss)
  // Post-GC RSS moves by several MiB between checkpoints (pages V8 and malloc keep or give back), so over half the
  // rows it gets the whole allowance; the heap, a precise figure, is held to it over the whole job.
  const runFlat = heapFitted < allowance && rssSecondHalf < allowance
  const streamGrowths = big.streams.map((s) => s.peakRss - s.rssBefore)
  // When the server has given pages back while idle (after the post-job GC, or between streams), a stream reads the
  // table back into SQLite's page cache: bounded, so each stream may grow by the allowance plus that cache. What the
  // streams may not do is take the server above its post-job level, or drift upwards from one to the next.
  const streamPeak = Math.max(...big.streams.map((s) => s.peakRss))
  const aboveJob = streamPeak - big.afterGc.proc.rss
  const firstStream = big.streams[0]
  const lastStream = big.streams[big.streams.length - 1]
  const drift = firstStream === undefined || lastStream === undefined ? 0 : lastStream.rssAfter - firstStream.rssAfter
  const streamFlat =
    big.streams.every((s, i) => s.rows === big.seeds && streamGrowths[i]! < allowance + SQLITE_PAGE_CACHE_BYTES) &&
    aboveJob < allowance &&
    drift < allowance
  const firstPolls = big.polls.slice(0, Math.max(1, Math.floor(big.polls.length / 10)))
  const lastPolls = big.polls.slice(-Math.max(1, Math.floor(big.polls.length / 10)))
  const streamRows = big.streams.map((s, i) => {
    const last = s.samples[s.samples.length - 1]!
    return row([
      String(i + 1),
      int(s.rows),
      mib(s.bytes),
      s.seconds.toFixed(2),
      int(s.rows / s.seconds),
      mib(s.rssBefore),
      `**${mib(s.peakRss)}**`,
      mib(s.rssAfter),
      signed(streamGrowths[i]! / 2 ** 20),
      `${mib(s.afterGc.heapUsed)} / ${mib(s.afterGc.proc.rss)}`,
      mib(last.hwm),
      int(s.serverCpuUs),
      cores(s.otherCores),
    ])
  })
  return [
    `### A ${int(big.seeds)}-rollout job, and its results streamed`,
    "",
    `Setup: a fresh job server process (same settings and data dir, started after part 1); one job of ${int(big.seeds)} seeds (a list of integers, as synth-ai sends them) ` +
      `at \`max_concurrent\` ${BIG_CONCURRENCY} against the zero-work task app. The server's VmRSS and VmHWM ` +
      "(`/proc/PID/status`) are sampled every second while it runs, next to the rows stored so far (from a status " +
      "poll every second, as a client would make). Then the results are streamed with " +
      "`GET /api/eval/jobs/{id}/results?format=jsonl` " +
      `${big.streams.length === 1 ? "once" : `${big.streams.length} times in a row`}, read chunk by chunk (never ` +
      "buffered), every row parsed and checked (seed in order, status ok, score = seed % 2), with RSS sampled every " +
      "100 ms. *after GC* is the server's `process.memoryUsage()` read over IPC after a full GC.",
    "",
    `Job: submitted in ${big.submitSeconds.toFixed(2)} s; ran ${big.serverSeconds.toFixed(1)} s from \`started_at\` to ` +
      `\`completed_at\` (**${int(big.seeds / big.serverSeconds)} rollouts/s**); ${big.clientSeconds.toFixed(1)} s from ` +
      `submit to the poll that saw it completed; mean score ${big.meanScore}. CPU: job server ` +
      `${int((big.serverCpuS / big.seeds) * 1e6)} µs per rollout, task app ${int((big.taskAppCpuS / big.seeds) * 1e6)} µs; ` +
      `others ${cores(big.otherCores)} cores. Status polls while it ran (one a second; time from send to last byte, ` +
      "waits for the busy event loop included): p50 " +
      `${ms(median(firstPolls.map((p) => p.ms)))} ms over the first tenth of the job, ` +
      `${ms(median(lastPolls.map((p) => p.ms)))} ms over the last.`,
    "",
    `Server VmRSS while the job ran, sampled every second (MiB; ${Math.min(12, big.samples.length)} of ` +
      `${big.samples.length} samples shown, including the highest):`,
    "",
    "| t (s) | rows stored | VmRSS | VmHWM |",
    "|---:|---:|---:|---:|",
    ...thin(big.samples, 12).map((s) => row([s.t.toFixed(0), int(s.rows), mib(s.rss), mib(s.hwm)])),
    "",
    "At every tenth of the rows (from the status polls), the server's memory after a full GC (MiB): its " +
      `\`process.memoryUsage()\` heap figures, and /proc/PID/status ${AFTER_GC_SETTLE_MS} ms later, once freed ` +
      "pages have been given back. What the rows could be holding on to shows here, without the GC sawtooth above.",
    "",
    "| rows stored | VmRSS before GC | VmRSS after GC | RssAnon | RssFile + RssShmem | heapUsed | heapTotal | external |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...big.checkpoints.map((c) =>
      row([
        int(c.rows),
        mib(c.rssBeforeGc),
        mib(c.proc.rss),
        mib(c.proc.anon),
        mib(c.proc.fileAndShmem),
        mib(c.heapUsed),
        mib(c.heapTotal),
        mib(c.external),
      ]),
    ),
    "",
    `RSS: start ${mib(big.rssStart)} MiB, **peak during the run ${mib(runPeak)} MiB** (${signed(runGrowth / 2 ** 20)}), ` +
      `end ${mib(big.rssEnd)} MiB; fitted growth over the run (from ${int(big.seeds / 10)} rows on) ` +
      `${signed(runSlope)} MiB per 100,000 rows (GC sawtooth included). heapUsed / VmRSS after GC: ` +
      `${mib(big.beforeGc.heapUsed)} / ${mib(big.beforeGc.proc.rss)} MiB before the job, ${mib(big.afterGc.heapUsed)} / ` +
      `${mib(big.afterGc.proc.rss)} MiB after it.`,
    "",
    "| stream | rows | MiB sent | s | rows/s | VmRSS before (MiB) | peak VmRSS | VmRSS after | growth (MiB) | heapUsed / VmRSS after GC (MiB) | VmHWM | server CPU µs/row | others (cores) |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...streamRows,
    "",
    `RSS series: start ${mib(big.rssStart)} MiB → peak during the run ${mib(runPeak)} → end of the run ` +
      `${mib(big.rssEnd)} → peak during streaming ${mib(Math.max(...big.streams.map((s) => s.peakRss)))} → end ` +
      `${mib(big.streams[big.streams.length - 1]?.rssAfter ?? big.rssEnd)} MiB; VmHWM at the end ${mib(big.hwmEnd)} MiB.`,
    "",
    `GET status of this ${int(big.seeds)}-row job (autocannon, 1 connection, ${BIG_STATUS_DURATION_S} s, so each ` +
      `request's time is its service time; not a target): ${int(big.statusBytes)}-byte answer, ` +
      `${int(big.statusLoad.rps)} req/s, p50 ${ms(big.statusLoad.latency.p50)} ms, p99 ` +
      `${ms(big.statusLoad.latency.p99)} ms, ${int(big.statusLoad.serverCpuUs)} µs server CPU per request.`,
    "",
    `Flat means no growth with rows: whatever grows with the rows must stay under ${FLAT_FRACTION * 100}% of the ` +
      `${mib(rowBytes)} MiB that holding the job's rows as JSON text would take (${mib(allowance)} MiB). ` +
      "Two things grow at first and then stop, so they are reported and bounded " +
      "rather than counted as growth with rows: the step from the idle server to its working set when the job starts " +
      `(${signed(runGrowth / 2 ** 20)} MiB at the per-second peak: ${BIG_CONCURRENCY} rollouts in flight, V8's heap ` +
      "sizing), and SQLite's page cache, which fills as the results table grows and is read back (better-sqlite3 " +
      `opens databases with \`cache_size = -16000\`: at most ${mib(SQLITE_PAGE_CACHE_BYTES)} MiB, malloc'd, so it ` +
      "shows in RssAnon and not in the JS heap). So the run is judged on the post-GC checkpoints — the JS heap from " +
      "the first tenth of the rows on, and RSS over the second half (against the whole allowance: post-GC RSS moves " +
      "by several MiB between checkpoints as V8 and malloc keep or give back pages, while the heap is a precise " +
      "figure) — and the streams on their peak against the server's post-GC VmRSS after the job, and on their drift " +
      "from one to the next; a single stream may also refill the page cache when the server has given pages back " +
      "while idle (after the post-job GC, or between streams).",
    "",
    `- memory flat while the job ran (post-GC heapUsed growth fitted from the first tenth of the rows on; post-GC ` +
      `VmRSS growth fitted over the second half): ${signed(heapFitted / 2 ** 20)} MiB; ` +
      `${signed(rssSecondHalf / 2 ** 20)} MiB — ${verdict(runFlat)}. (Post-GC VmRSS fitted from the first tenth on: ` +
      `${signed(rssFitted / 2 ** 20)} MiB; the per-second VmRSS series from the first tenth on: ` +
      `${signed((runSlope * big.seeds) / 100_000)} MiB.)`,
    `- memory flat while streaming ${int(big.seeds)} rows ${big.streams.length} times (highest VmRSS of all streams ` +
      `− post-GC VmRSS after the job; VmRSS after the last stream − after the first; each stream's peak − its start, ` +
      `each under the allowance + ${mib(SQLITE_PAGE_CACHE_BYTES)} MiB of page cache): ${signed(aboveJob / 2 ** 20)} MiB; ` +
      `${signed(drift / 2 ** 20)} MiB; ${streamGrowths.map((g) => `${signed(g / 2 ** 20)} MiB`).join(", ")} — ` +
      `${verdict(streamFlat)}.`,
    "",
  ]
}

/**
 * The status of a job that is still running: one rollout sent to a task app that takes it and never answers,
 * so nothing changes while autocannon polls it. Cancelled afterwards.
 */
const measureRunningJob = async (
  server: ServerProcess,
  key: string,
  auth: Record<string, string>,
  pids: ReadonlyArray<number>,
): Promise<LoadResult> => {
  const silent = createServer((req, res) => {
    if (req.url === "/health") res.writeHead(200, { "content-type": "application/json" }).end('{"healthy":true}')
    else req.resume()
  })
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
  try {
    const origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    const jobId = await submitJob(server, key, origin, 1, 1, 3_600)
    let statusText = ""
    for (let tries = 0; ; tries++) {
      statusText = await api(server, key, "GET", `/api/eval/jobs/${jobId}`)
      if ((JSON.parse(statusText) as StatusBody).status === "running") break
      if (tries === 100) throw new Error(`job ${jobId} is not running: ${statusText}`)
      await sleep(50)
    }
    const url = `${server.url}/api/eval/jobs/${jobId}`
    await waitForQuiet(pids)
    const result = await hammer("server", url, auth, statusText, DURATION_S, server.pid, [])
    log(`running job: ${describeLoad(result)}`)
    await api(server, key, "POST", `/api/eval/jobs/${jobId}/cancel`)
    return result
  } finally {
    silent.closeAllConnections()
    silent.close()
  }
}

// -------------------------------------------------------------------------------------------------- main

const main = async () => {
  const startedAt = new Date()
  const loadBefore = loads()
  const tmp = mkdtempSync(join(tmpdir(), "proctor-bench-server-"))
  const dataDir = join(tmp, "data")
  let server: ServerProcess | null = null
  let taskApp: PortProcess | null = null
  let bare: PortProcess | null = null
  try {
    const created = await createApiKey({ dataDir, name: "bench" })
    taskApp = await startPortProcess("the task app", TASK_APP_SCRIPT, ["0"])
    server = await startServer(dataDir, Math.max(DEFAULT_MAX_SEEDS_PER_JOB, BIG_SEEDS))
    const key = created.key
    log(`job server ${server.url} (pid ${server.pid}), task app ${taskApp.origin}; load average ${loadBefore}`)

    const smallJobId = await submitJob(server, key, taskApp.origin, SMALL_SEEDS, 4)
    await waitForJob(server, key, smallJobId, 100)
    const statusText = await api(server, key, "GET", `/api/eval/jobs/${smallJobId}`)
    const bodyFile = join(tmp, "status.json")
    writeFileSync(bodyFile, statusText)
    bare = await startPortProcess("the bare fastify server", BARE_SCRIPT, [bodyFile])
    const bareText = await (await request(`${bare.origin}/api/eval/jobs/${smallJobId}`)).body.text()
    if (bareText !== statusText) throw new Error(`the bare route answers other bytes:\n${bareText}\n${statusText}`)
    log(`small job ${smallJobId}: status body ${Buffer.byteLength(statusText)} bytes; bare fastify ${bare.origin}`)

    const serverUrl = `${server.url}/api/eval/jobs/${smallJobId}`
    const bareUrl = `${bare.origin}/api/eval/jobs/${smallJobId}`
    const auth = { authorization: `Bearer ${key}` }
    const pids = [server.pid, bare.pid, taskApp.pid]
    const s = server
    const b = bare
    const measureServer = (seconds: number) =>
      hammer("server", serverUrl, auth, statusText, seconds, s.pid, [b.pid, taskApp!.pid])
    const measureBare = (seconds: number) =>
      hammer("bare", bareUrl, auth, statusText, seconds, b.pid, [s.pid, taskApp!.pid])
    if (WARMUP_S > 0) {
      await measureServer(WARMUP_S)
      await measureBare(WARMUP_S)
    }
    const rounds: Array<Round> = []
    for (let i = 0; i < ROUNDS; i++) {
      const serverFirst = i % 2 === 0
      const results: Partial<Record<LoadResult["target"], LoadResult>> = {}
      for (const target of serverFirst ? (["server", "bare"] as const) : (["bare", "server"] as const)) {
        await waitForQuiet(pids)
        const result = await (target === "server" ? measureServer : measureBare)(DURATION_S)
        log(`round ${i + 1} ${target === "server" ? "job server" : "bare fastify"}: ${describeLoad(result)}`)
        results[target] = result
      }
      rounds.push({ server: results.server!, bare: results.bare!, serverFirst })
    }
    await bare.stop()
    bare = null
    const running = await measureRunningJob(server, key, auth, [server.pid, taskApp.pid])
    await server.stop()
    server = null

    let big: BigJobResult | null = null
    if (BIG_SEEDS > 0) {
      // A fresh server process on the same data dir, so its RSS and VmHWM describe this job alone.
      server = await startServer(dataDir, Math.max(DEFAULT_MAX_SEEDS_PER_JOB, BIG_SEEDS))
      log(`big job: ${BIG_SEEDS} seeds at max_concurrent ${BIG_CONCURRENCY}; job server pid ${server.pid}`)
      await waitForQuiet([server.pid, taskApp.pid])
      big = await runBigJob(server, key, taskApp)
    }

    const section = renderSection(rounds, running, big, {
      startedAt,
      proctor: describeProctor(),
      loadBefore,
      loadAfter: loads(),
      statusBytes: Buffer.byteLength(statusText),
    })
    publishSection(SECTION, section)
  } finally {
    await bare?.stop()
    await server?.stop()
    await taskApp?.stop()
    rmSync(tmp, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
})
