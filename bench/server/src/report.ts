import {
  cores,
  int,
  invokedWith,
  linearFit,
  machineDescription,
  measuredAt,
  median,
  mib,
  ms,
  type ProctorRun,
  ratio,
  verdict,
} from "@proctor/bench-shared"
import type { BigJobResult, Checkpoint, MemorySample } from "./bigJob.js"
import type { LoadResult } from "./hammer.js"
import {
  AFTER_GC_SETTLE_MS,
  BIG_CONCURRENCY,
  BIG_STATUS_DURATION_S,
  CONNECTIONS,
  DURATION_S,
  FLAT_FRACTION,
  PIPELINING,
  SECTION,
  SERVER_VS_CLI_TARGET,
  SMALL_SEEDS,
  SQLITE_PAGE_CACHE_BYTES,
  TARGET_RATIO,
  TARGET_RPS,
  WARMUP_S,
} from "./settings.js"

export const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(1)}`

export interface Round {
  readonly server: LoadResult
  readonly bare: LoadResult
  readonly serverFirst: boolean
}

export interface RunInfo {
  readonly startedAt: Date
  readonly proctor: string
  readonly loadBefore: string
  readonly loadAfter: string
  readonly statusBytes: number
}

/** Rows of fitted growth: least-squares slope of RSS over rows, in MiB per 100,000 rows. */
export const slopePer100k = (samples: ReadonlyArray<MemorySample>) => {
  if (samples.length < 3) return Number.NaN
  const fit = linearFit(
    samples.map((s) => s.rows),
    samples.map((s) => s.rss),
  )
  return (fit.slope * 100_000) / 2 ** 20
}

/** At most `max` samples, evenly spaced, always keeping the first, the last and the highest. */
export const thin = (samples: ReadonlyArray<MemorySample>, max: number): ReadonlyArray<MemorySample> => {
  if (samples.length <= max) return samples
  let peak = 0
  for (let i = 1; i < samples.length; i++) if (samples[i]!.rss > samples[peak]!.rss) peak = i
  const picked = new Set<number>([0, samples.length - 1, peak])
  for (let k = 1; k < max - 2; k++) picked.add(Math.round((k * (samples.length - 1)) / (max - 2)))
  return [...picked].sort((a, b) => a - b).map((i) => samples[i]!)
}

export const renderSection = (
  rounds: ReadonlyArray<Round>,
  running: LoadResult,
  big: BigJobResult | null,
  cli: ProctorRun | null,
  info: RunInfo,
): string => {
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const med = (pick: (r: Round) => number) => median(rounds.map(pick))
  const serverRps = med((r) => r.server.rps)
  const bareRps = med((r) => r.bare.rps)
  const lines: Array<string> = [
    SECTION,
    "",
    `Measured ${measuredAt(info.startedAt)} UTC with ` +
      "`npx -y pnpm@10 run bench:server` (bench/server)" +
      (invokedWith() === "" ? "" : ` as \`node bench/server/dist/main.js ${invokedWith()}\``) +
      `; proctor at ${info.proctor}.`,
    "",
    `Machine: ${machineDescription()}. The load generator (autocannon, in the bench process), the ` +
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
  if (big !== null && cli !== null) lines.push(...renderAgainstCli(big, cli))
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

export const renderBigJob = (big: BigJobResult): ReadonlyArray<string> => {
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

/** The embedded server against `proctor eval` on the same job: the same seeds, concurrency and task app. */
const renderAgainstCli = (big: BigJobResult, cli: ProctorRun): ReadonlyArray<string> => {
  const serverRate = big.seeds / big.serverSeconds
  const versus = serverRate / cli.inRunThroughput
  return [
    "",
    `### The same job through \`proctor eval\``,
    "",
    `\`proctor eval --url TASK_APP --seeds 0-${big.seeds - 1} --concurrency ${BIG_CONCURRENCY} --json --no-intercept\` ` +
      "as a whole process after the job server stopped, against the same zero-work task app: in-run " +
      `${int(cli.inRunThroughput)} rollouts/s (\`summary.throughput_per_s\`), whole process ${int(cli.wallThroughput)}/s; ` +
      `${int((cli.cpuSeconds / cli.seeds) * 1e6)} µs of CPU per rollout (the whole process); others ` +
      `${cores(cli.otherCores)} cores.`,
    "",
    `- embedded job server ≥ ${SERVER_VS_CLI_TARGET}× the CLI's in-run throughput on the same job: ` +
      `${int(serverRate)} / ${int(cli.inRunThroughput)} rollouts/s = ${ratio(versus)} — ` +
      `${verdict(versus >= SERVER_VS_CLI_TARGET)}.`,
  ]
}
