/**
 * scale-out: rollouts/s of proctor's cluster (API + `proctor worker`s on PostgreSQL and Redis) against a task app
 * whose rollouts take 200 ms, for 1, 2 and 4 workers at the same per-worker concurrency, and the CPU per rollout of
 * the whole system beside the embedded server's (`proctor serve` without Redis, rollouts in-process).
 *
 * Every measured process is started for its run and stopped after it, so its CPU (user + system from
 * /proc/PID/stat, read just before it stops) includes its start-up:
 *   - embedded: one `proctor serve --data-dir` (SQLite), the job's max_concurrent = workers × concurrency;
 *   - cluster: a PostgreSQL cluster of the bench's own (started once, a fresh database per run; its CPU, reaped
 *     backends included, counted from the run's start), a `redis-server` of its own per run, one
 *     `proctor serve --database-url --redis-url` and N `proctor worker --concurrency C`.
 * The task app (`bench/shared`'s zero-work app with `--latency-ms`) and this process are the load, not the system.
 * A run's rollouts/s is seeds / (submit → `completed`); seeds are sized so the ideal run (every slot busy) takes
 * `--seconds`, and its results are read back to check every seed is there exactly once.
 *
 * Writes the `## scale-out` section of bench/RESULTS.md (other sections are kept).
 *
 * Flags: --workers 1,2,4, --concurrency C (per worker, default 16), --latency-ms N (default 200), --seconds S
 * (ideal duration of a run, default 10), --variants embedded,cluster, --quiet-wait S (default 60), --no-write.
 */
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  argNumber,
  argString,
  atBenchExit,
  benchJobRequest,
  cores,
  describeCommit,
  freePort,
  int,
  jsonLine,
  loads,
  log,
  machineDescription,
  matched,
  POSITIVE_INTEGER,
  processCpu,
  publishSection,
  QUIET_CORES,
  REPO_ROOT,
  ratio,
  sleep,
  startCpuMeter,
  startProcess,
  verdict,
  waitForQuiet,
  ZERO_WORK_TASK_APP,
} from "@proctor/bench-shared"
import { type OwnPostgres, startOwnPostgres } from "./postgres.js"

const WORKER_COUNTS = (argString("--workers") ?? "1,2,4").split(",").map(Number)
const CONCURRENCY = argNumber("--concurrency", 16, POSITIVE_INTEGER)
const LATENCY_MS = argNumber("--latency-ms", 200)
const IDEAL_SECONDS = argNumber("--seconds", 10)
const VARIANTS = (argString("--variants") ?? "embedded,cluster").split(",")
const QUIET_WAIT_S = argNumber("--quiet-wait", 60)
const TARGET_LINEAR = 0.9
const SECTION = "## scale-out"
const CLI = join(REPO_ROOT, "packages/cli/dist/bin.cjs")
const JOB_DEADLINE_MS = 10 * 60_000

// --------------------------------------------------------------------------------------------- processes

/** A process of the system measured: ready once a line of its stdout or stderr matches `ready`. */
const start = (
  what: string,
  options: { script: string } | { command: string },
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
) => startProcess({ what, ...options, args, env, ready: matched(ready), readyOnStderr: true, killAfterMs: 30_000 })

const proctor = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
  const result = spawnSync(process.execPath, [CLI, ...args], { env, encoding: "utf8" })
  if (result.status !== 0) throw new Error(`proctor ${args.join(" ")} exited ${result.status}:\n${result.stderr}`)
  return result.stdout.trim()
}

const serveReady = /listening on (http:\/\/\S+)/

// ------------------------------------------------------------------------------------------------- job API

const api = async (url: string, key: string, method: "GET" | "POST", path: string, body?: unknown) => {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`)
  return text
}

/** Submits a job and waits for it; seconds from the submit to `completed`, after checking every seed came back once. */
const runJob = async (url: string, key: string, taskApp: string, seeds: number, maxConcurrent: number) => {
  const body = benchJobRequest(taskApp, seeds, maxConcurrent)
  const t0 = performance.now()
  const { job_id } = JSON.parse(await api(url, key, "POST", "/api/eval/jobs", body)) as { job_id: string }
  for (;;) {
    const status = JSON.parse(await api(url, key, "GET", `/api/eval/jobs/${job_id}`)) as {
      status: string
      error: string | null
    }
    if (status.status === "completed") break
    if (status.status !== "pending" && status.status !== "running") {
      throw new Error(`job ${job_id} ended ${status.status}: ${status.error}`)
    }
    if (performance.now() - t0 > JOB_DEADLINE_MS) throw new Error(`job ${job_id} did not finish in time`)
    await sleep(100)
  }
  const seconds = (performance.now() - t0) / 1000
  const lines = (await api(url, key, "GET", `/api/eval/jobs/${job_id}/results?format=jsonl`)).split("\n")
  const rows = lines.filter((line) => line !== "").map((line) => JSON.parse(line) as { seed: number; status: string })
  const distinct = new Set(rows.map((row) => row.seed))
  const failed = rows.filter((row) => row.status !== "ok").length
  if (rows.length !== seeds || distinct.size !== seeds || failed > 0) {
    throw new Error(
      `job ${job_id}: ${rows.length} rows, ${distinct.size} distinct seeds, ${failed} not ok (${seeds} seeds)`,
    )
  }
  return seconds
}

// -------------------------------------------------------------------------------------------------- runs

interface Run {
  readonly variant: "embedded" | "cluster"
  readonly workers: number
  readonly seeds: number
  readonly seconds: number
  /** CPU seconds of each part of the system, start-up included. */
  readonly cpu: ReadonlyArray<readonly [string, number]>
  /** Cores other processes used while the job ran. */
  readonly otherCores: number
}

interface TaskApp {
  readonly url: string
  readonly pid: number
}

const quiet = (taskApp: TaskApp) => waitForQuiet([taskApp.pid], { maxSeconds: QUIET_WAIT_S })

const seedsFor = (workers: number) => Math.round((workers * CONCURRENCY * IDEAL_SECONDS * 1000) / LATENCY_MS)

const runEmbedded = async (workers: number, taskApp: TaskApp): Promise<Run> => {
  const dataDir = mkdtempSync(join(tmpdir(), "proctor-bench-embedded-"))
  const env = { ...process.env, PROCTOR_SECRET_KEY: undefined }
  try {
    const key = proctor(["keys", "create", "--name", "bench", "--data-dir", dataDir], env)
    await quiet(taskApp)
    const server = await start(
      "proctor serve",
      { script: CLI },
      ["serve", "--data-dir", dataDir, "--port", "0"],
      env,
      serveReady,
    )
    const meter = startCpuMeter([server.pid, taskApp.pid])
    const seeds = seedsFor(workers)
    const seconds = await runJob(server.ready[1]!, key, taskApp.url, seeds, workers * CONCURRENCY)
    const otherCores = meter().otherCores
    const cpu = processCpu(server.pid)
    await server.stop()
    return { variant: "embedded", workers, seeds, seconds, cpu: [["server", cpu]], otherCores }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const runCluster = async (workers: number, taskApp: TaskApp, postgres: OwnPostgres): Promise<Run> => {
  const redisPort = await freePort()
  const prefix = `bench-${randomBytes(4).toString("hex")}`
  const redis = await start(
    "redis-server",
    { command: "redis-server" },
    [
      "--port",
      String(redisPort),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--maxmemory-policy",
      "noeviction",
    ],
    process.env,
    /Ready to accept connections/,
  )
  const redisUrl = `redis://127.0.0.1:${redisPort}`
  const databaseUrl = postgres.createDatabase(prefix.replace("-", "_"))
  const env = { ...process.env, PROCTOR_SECRET_KEY: randomBytes(32).toString("base64") }
  const cluster = ["--database-url", databaseUrl, "--redis-url", redisUrl, "--redis-prefix", prefix]
  const key = proctor(["keys", "create", "--name", `bench-${prefix}`, "--database-url", databaseUrl], env)
  await quiet(taskApp)
  const pg0 = postgres.cpuSeconds()
  const redis0 = processCpu(redis.pid)
  const apiServer = await start("proctor serve", { script: CLI }, ["serve", ...cluster, "--port", "0"], env, serveReady)
  const workerProcesses = await Promise.all(
    Array.from({ length: workers }, () =>
      start("proctor worker", { script: CLI }, ["worker", ...cluster, "--concurrency", String(CONCURRENCY)], env, /./),
    ),
  )
  const pgAtStart = postgres.cpuSeconds()
  const meter = startCpuMeter([apiServer.pid, ...workerProcesses.map((worker) => worker.pid), redis.pid, taskApp.pid])
  const seeds = seedsFor(workers)
  const seconds = await runJob(apiServer.ready[1]!, key, taskApp.url, seeds, workers * CONCURRENCY)
  // PostgreSQL's backends come and go: the cluster's CPU is read as a whole, not by pid.
  const otherCores = meter(postgres.cpuSeconds() - pgAtStart).otherCores
  const workerCpu = workerProcesses.reduce((sum, worker) => sum + processCpu(worker.pid), 0)
  const apiCpu = processCpu(apiServer.pid)
  await Promise.all([apiServer.stop(), ...workerProcesses.map((worker) => worker.stop())])
  // Their PostgreSQL backends exit with them; the postmaster reaps them into its own children's CPU.
  await sleep(500)
  const pgCpu = postgres.cpuSeconds() - pg0
  const redisCpu = processCpu(redis.pid) - redis0
  await redis.stop()
  return {
    variant: "cluster",
    workers,
    seeds,
    seconds,
    cpu: [
      ["API", apiCpu],
      ["workers", workerCpu],
      ["PostgreSQL", pgCpu],
      ["Redis", redisCpu],
    ],
    otherCores,
  }
}

// ------------------------------------------------------------------------------------------------ report

const rateOf = (run: Run) => run.seeds / run.seconds
const cpuOf = (run: Run) => run.cpu.reduce((sum, [, s]) => sum + s, 0)

const render = (runs: ReadonlyArray<Run>, command: string, loadBefore: string, loadAfter: string) => {
  const lines = [
    SECTION,
    "",
    `Measured ${new Date().toISOString()} on ${machineDescription()}, ` +
      `${describeCommit(REPO_ROOT) ?? "(not in a git checkout)"}; load average (1/5/15 min) ${loadBefore} before, ` +
      `${loadAfter} after. Task app: ${LATENCY_MS} ms per rollout; ${CONCURRENCY} rollouts at once per worker ` +
      "(the embedded server runs the same total at once in-process).",
    "",
    `\`${command}\``,
    "",
    "| variant | workers | seeds | seconds | rollouts/s | ideal | vs linear from 1 | CPU s (start-up included) | CPU ms / rollout | other processes (cores) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ]
  for (const run of runs) {
    const one = runs.find((r) => r.variant === run.variant && r.workers === 1)
    const linear = one === undefined ? "–" : ratio(rateOf(run) / (rateOf(one) * run.workers))
    const ideal = (run.workers * CONCURRENCY * 1000) / LATENCY_MS
    const parts = run.cpu.map(([name, s]) => `${name} ${s.toFixed(1)}`).join(" + ")
    lines.push(
      `| ${run.variant} | ${run.workers} | ${int(run.seeds)} | ${run.seconds.toFixed(1)} | ${rateOf(run).toFixed(1)} | ` +
        `${ideal.toFixed(0)} | ${linear} | ${parts} = ${cpuOf(run).toFixed(1)} | ${((cpuOf(run) / run.seeds) * 1000).toFixed(2)} | ` +
        `${cores(run.otherCores)} |`,
    )
  }
  const cluster1 = runs.find((r) => r.variant === "cluster" && r.workers === 1)
  const clusterMax = runs.filter((r) => r.variant === "cluster").at(-1)
  lines.push("")
  if (cluster1 !== undefined && clusterMax !== undefined && clusterMax.workers > 1) {
    const scaling = rateOf(clusterMax) / (rateOf(cluster1) * clusterMax.workers)
    lines.push(
      `Target ≥ ${TARGET_LINEAR}× linear from 1 to ${clusterMax.workers} workers: ${ratio(scaling)}, ${verdict(scaling >= TARGET_LINEAR)}.`,
    )
  } else {
    lines.push("The cluster variant was not run: only the embedded server's figures are here.")
  }
  if (runs.some((run) => run.otherCores >= QUIET_CORES)) {
    lines.push(
      "",
      `Other processes used ${QUIET_CORES} cores or more during a run (last column): a starved machine slows every ` +
        "process of the system, so these rollouts/s measure the contention as much as proctor. Compare runs made " +
        "while the machine is quiet.",
    )
  }
  return `${lines.join("\n")}\n`
}

const main = async () => {
  const command = `node bench/scale-out/dist/main.js ${process.argv.slice(2).join(" ")}`.trim()
  const loadBefore = loads()
  const taskApp = await startProcess({
    what: "task app",
    script: ZERO_WORK_TASK_APP,
    args: ["0", "--latency-ms", String(LATENCY_MS), "--exit-with-stdin"],
    stdinPipe: true,
    ready: jsonLine<{ port: number }>(),
  })
  const app: TaskApp = { url: `http://127.0.0.1:${taskApp.ready.port}`, pid: taskApp.pid }
  const runs: Array<Run> = []
  let postgres: OwnPostgres | null = null
  try {
    if (VARIANTS.includes("embedded")) {
      for (const workers of WORKER_COUNTS) {
        log(`embedded server, ${workers * CONCURRENCY} at once…`)
        runs.push(await runEmbedded(workers, app))
        log(`  ${rateOf(runs.at(-1)!).toFixed(1)} rollouts/s`)
      }
    }
    if (VARIANTS.includes("cluster")) {
      postgres = await startOwnPostgres()
      atBenchExit(postgres.stop)
      for (const workers of WORKER_COUNTS) {
        log(`cluster, ${workers} worker(s) × ${CONCURRENCY}…`)
        runs.push(await runCluster(workers, app, postgres))
        log(`  ${rateOf(runs.at(-1)!).toFixed(1)} rollouts/s`)
      }
    }
  } finally {
    postgres?.stop()
    await taskApp.stop()
  }
  publishSection(SECTION, render(runs, command, loadBefore, loads()))
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exit(1)
})
