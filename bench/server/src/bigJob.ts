import { int, log, mib, type ProcMemory, procMemory, sleep, startCpuMeter } from "@proctor/bench-shared"
import { request } from "undici"
import { describeLoad, hammer, type LoadResult } from "./hammer.js"
import { api, type StatusBody, submitJob, waitForJob } from "./jobApi.js"
import type { MemoryUsage, PortProcess, ServerProcess } from "./processes.js"
import { AFTER_GC_SETTLE_MS, BIG_CONCURRENCY, BIG_SEEDS, BIG_STATUS_DURATION_S, quiet, STREAMS } from "./settings.js"

const memoryOf = (pid: number): ProcMemory => {
  const memory = procMemory(pid)
  if (memory === null) throw new Error(`process ${pid} is gone`)
  return memory
}

export interface MemorySample {
  /** Seconds since the job was submitted (run) or the stream started (streaming). */
  readonly t: number
  /** Rows the server had stored (run; from the latest status poll) or sent (streaming; counted by the client). */
  readonly rows: number
  readonly rss: number
  readonly hwm: number
}

/** The server's memory read over IPC after a full GC, at 0, 10%, …, 100% of the job's rows. */
export interface Checkpoint extends MemoryUsage {
  readonly rows: number
  /** VmRSS just before the GC. */
  readonly rssBeforeGc: number
  /** /proc/PID/status AFTER_GC_SETTLE_MS after the GC. */
  readonly proc: ProcMemory
}

/** The server's memory after a full GC: its heap figures, and /proc once freed pages have been given back. */
export const checkpoint = async (server: ServerProcess, rows: number): Promise<Checkpoint> => {
  const rssBeforeGc = memoryOf(server.pid).rss
  const usage = await server.memory(true)
  await sleep(AFTER_GC_SETTLE_MS)
  return { ...usage, rows, rssBeforeGc, proc: memoryOf(server.pid) }
}

export interface StreamResult {
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

export interface BigJobResult {
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

export const runBigJob = async (server: ServerProcess, key: string, taskApp: PortProcess): Promise<BigJobResult> => {
  const beforeGc = await checkpoint(server, 0)
  const rssStart = beforeGc.proc.rss
  const samples: Array<MemorySample> = []
  const polls: Array<{ rows: number; ms: number }> = []
  const checkpoints: Array<Promise<Checkpoint>> = [Promise.resolve(beforeGc)]
  let nextTenth = 1
  let rows = 0
  const meter = startCpuMeter([server.pid, taskApp.pid])
  const t0 = performance.now()
  const sample = () => samples.push({ t: (performance.now() - t0) / 1000, rows, ...memoryOf(server.pid) })
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
  const rssEnd = memoryOf(server.pid).rss
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
    await quiet([server.pid, taskApp.pid])
    const stream = await streamResults(server, key, jobId, taskApp.pid)
    log(
      `  stream ${i + 1}: ${int(stream.rows)} rows, ${mib(stream.bytes)} MiB in ${stream.seconds.toFixed(2)} s; RSS ` +
        `${mib(stream.rssBefore)} → peak ${mib(stream.peakRss)} → ${mib(stream.rssAfter)} MiB`,
    )
    streams.push(stream)
  }

  await quiet([server.pid, taskApp.pid])
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
    hwmEnd: memoryOf(server.pid).hwm,
  }
}

/** Streams `?format=jsonl`, counting and checking rows chunk by chunk (seeds in order, score = seed % 2). */
export const streamResults = async (
  server: ServerProcess,
  key: string,
  jobId: string,
  taskAppPid: number,
): Promise<StreamResult> => {
  const rssBefore = memoryOf(server.pid).rss
  const samples: Array<MemorySample> = []
  let rows = 0
  let bytes = 0
  const meter = startCpuMeter([server.pid, taskAppPid])
  const t0 = performance.now()
  const sample = () => samples.push({ t: (performance.now() - t0) / 1000, rows, ...memoryOf(server.pid) })
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
  const rssAfter = memoryOf(server.pid).rss
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
