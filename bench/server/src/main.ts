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
 *    sampling every 100 ms. Growth with rows is judged on the post-GC readings (see `bigJobFigures` in report.ts).
 *
 * Writes the `## server` section of bench/RESULTS.md (other sections are kept).
 *
 * Flags: --duration S (autocannon per measurement, default 10), --rounds N (default 3), --connections N
 * (default 64), --warmup S (default 3), --seeds N (the big job, default 100000; 0 skips part 2),
 * --concurrency N (its max_concurrent, default 64), --streams N (times the results are streamed, default 3),
 * --quiet-wait S (default 60), --no-write, --server-prof DIR (run the job server with --cpu-prof into DIR).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  describeProctor,
  loads,
  log,
  type ProctorRun,
  publishSection,
  runProctorEval,
  startZeroWorkTaskApp,
} from "@proctor/bench-shared"
import { createApiKey, DEFAULT_MAX_SEEDS_PER_JOB } from "@proctor/server"
import { request } from "undici"
import { type BigJobResult, runBigJob } from "./bigJob.js"
import { describeLoad, hammer, type LoadResult } from "./hammer.js"
import { api, submitJob, waitForJob } from "./jobApi.js"
import { type PortProcess, type ServerProcess, startBare, startServer } from "./processes.js"
import { type Round, renderSection } from "./report.js"
import { measureRunningJob } from "./runningJob.js"
import {
  BIG_CONCURRENCY,
  BIG_SEEDS,
  CLI_BIN,
  DURATION_S,
  quiet,
  ROUNDS,
  SECTION,
  SMALL_SEEDS,
  WARMUP_S,
} from "./settings.js"

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
    taskApp = await startZeroWorkTaskApp()
    server = await startServer(dataDir, Math.max(DEFAULT_MAX_SEEDS_PER_JOB, BIG_SEEDS))
    const key = created.key
    log(`job server ${server.url} (pid ${server.pid}), task app ${taskApp.origin}; load average ${loadBefore}`)

    const smallJobId = await submitJob(server, key, taskApp.origin, SMALL_SEEDS, 4)
    await waitForJob(server, key, smallJobId, 100)
    const statusText = await api(server, key, "GET", `/api/eval/jobs/${smallJobId}`)
    const bodyFile = join(tmp, "status.json")
    writeFileSync(bodyFile, statusText)
    bare = await startBare(bodyFile)
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
        await quiet(pids)
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
    let cli: ProctorRun | null = null
    if (BIG_SEEDS > 0) {
      // A fresh server process on the same data dir, so its RSS and VmHWM describe this job alone.
      server = await startServer(dataDir, Math.max(DEFAULT_MAX_SEEDS_PER_JOB, BIG_SEEDS))
      log(`big job: ${BIG_SEEDS} seeds at max_concurrent ${BIG_CONCURRENCY}; job server pid ${server.pid}`)
      await quiet([server.pid, taskApp.pid])
      big = await runBigJob(server, key, taskApp)
      await server.stop()
      server = null
      log(`the same job through proctor eval`)
      await quiet([taskApp.pid])
      cli = await runProctorEval(CLI_BIN, taskApp, BIG_SEEDS, BIG_CONCURRENCY)
    }

    const section = renderSection(rounds, running, big, cli, {
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
