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
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import {
  argNumber,
  argString,
  benchJobRequest,
  cores,
  describeCommit,
  int,
  loads,
  log,
  machineCpu,
  POSITIVE_INTEGER,
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

const children = new Set<ChildProcess>()
const cleanups: Array<() => void> = []
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    for (const cleanup of cleanups) cleanup()
    process.exit(130)
  })
}

interface Started {
  readonly child: ChildProcess
  readonly pid: number
  /** The first stdout/stderr line matching the pattern given at start. */
  readonly match: RegExpExecArray
  /** SIGTERM (SIGKILL after 30 s); resolves once it exited. */
  readonly stop: () => Promise<void>
}

/** Spawns a process and resolves once a line of its output matches `ready`. */
const start = (what: string, command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, ready: RegExp) =>
  new Promise<Started>((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"] })
    children.add(child)
    const exited = new Promise<void>((done) =>
      child.once("exit", () => {
        children.delete(child)
        done()
      }),
    )
    let output = ""
    const onLine = (line: string) => {
      output += `${line}\n`
      const match = ready.exec(line)
      if (match === null) return
      resolve({
        child,
        pid: child.pid!,
        match,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
          const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
          await exited
          clearTimeout(timer)
        },
      })
    }
    createInterface({ input: child.stdout! }).on("line", onLine)
    createInterface({ input: child.stderr! }).on("line", onLine)
    void exited.then(() => reject(new Error(`${what} exited before it was ready:\n${output}`)))
  })

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

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

/** Cores used by processes outside `ours` over a stretch of time. */
const othersMeter = (ours: () => number) => {
  const busy0 = machineCpu().busy
  const ours0 = ours() + selfCpu()
  const t0 = performance.now()
  return () => {
    const seconds = (performance.now() - t0) / 1000
    const others = machineCpu().busy - busy0 - (ours() + selfCpu() - ours0)
    return Math.max(0, others / seconds)
  }
}

const waitForQuiet = async () => {
  const deadline = performance.now() + QUIET_WAIT_S * 1000
  for (;;) {
    const meter = othersMeter(() => 0)
    await sleep(1000)
    const others = meter()
    if (others < QUIET_CORES || performance.now() >= deadline) {
      if (others >= QUIET_CORES) log(`  (busy machine: other processes use ${cores(others)} cores; measuring anyway)`)
      return
    }
  }
}

const seedsFor = (workers: number) => Math.round((workers * CONCURRENCY * IDEAL_SECONDS * 1000) / LATENCY_MS)

const runEmbedded = async (workers: number, taskApp: string): Promise<Run> => {
  const dataDir = mkdtempSync(join(tmpdir(), "proctor-bench-embedded-"))
  const env = { ...process.env, PROCTOR_SECRET_KEY: undefined }
  try {
    const key = proctor(["keys", "create", "--name", "bench", "--data-dir", dataDir], env)
    await waitForQuiet()
    const server = await start(
      "proctor serve",
      process.execPath,
      [CLI, "serve", "--data-dir", dataDir, "--port", "0"],
      env,
      serveReady,
    )
    const meter = othersMeter(() => processCpu(server.pid))
    const seeds = seedsFor(workers)
    const seconds = await runJob(server.match[1]!, key, taskApp, seeds, workers * CONCURRENCY)
    const otherCores = meter()
    const cpu = processCpu(server.pid)
    await server.stop()
    return { variant: "embedded", workers, seeds, seconds, cpu: [["server", cpu]], otherCores }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const runCluster = async (workers: number, taskApp: string, postgres: OwnPostgres): Promise<Run> => {
  const redisPort = await freePort()
  const prefix = `bench-${randomBytes(4).toString("hex")}`
  const redis = await start(
    "redis-server",
    "redis-server",
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
  await waitForQuiet()
  const pg0 = postgres.cpuSeconds()
  const redis0 = processCpu(redis.pid)
  const apiServer = await start(
    "proctor serve",
    process.execPath,
    [CLI, "serve", ...cluster, "--port", "0"],
    env,
    serveReady,
  )
  const workerProcesses = await Promise.all(
    Array.from({ length: workers }, () =>
      start(
        "proctor worker",
        process.execPath,
        [CLI, "worker", ...cluster, "--concurrency", String(CONCURRENCY)],
        env,
        /./,
      ),
    ),
  )
  const ours = () =>
    processCpu(apiServer.pid) +
    workerProcesses.reduce((sum, worker) => sum + processCpu(worker.pid), 0) +
    postgres.cpuSeconds() +
    processCpu(redis.pid)
  const meter = othersMeter(ours)
  const seeds = seedsFor(workers)
  const seconds = await runJob(apiServer.match[1]!, key, taskApp, seeds, workers * CONCURRENCY)
  const otherCores = meter()
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
    `Measured ${new Date().toISOString()} on ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ` +
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
  const taskApp = await start(
    "task app",
    process.execPath,
    [ZERO_WORK_TASK_APP, "--latency-ms", String(LATENCY_MS), "--exit-with-stdin"],
    process.env,
    /"port":\s*(\d+)/,
  )
  const taskAppUrl = `http://127.0.0.1:${taskApp.match[1]}`
  const runs: Array<Run> = []
  let postgres: OwnPostgres | null = null
  try {
    if (VARIANTS.includes("embedded")) {
      for (const workers of WORKER_COUNTS) {
        log(`embedded server, ${workers * CONCURRENCY} at once…`)
        runs.push(await runEmbedded(workers, taskAppUrl))
        log(`  ${rateOf(runs.at(-1)!).toFixed(1)} rollouts/s`)
      }
    }
    if (VARIANTS.includes("cluster")) {
      postgres = await startOwnPostgres()
      cleanups.push(postgres.stop)
      for (const workers of WORKER_COUNTS) {
        log(`cluster, ${workers} worker(s) × ${CONCURRENCY}…`)
        runs.push(await runCluster(workers, taskAppUrl, postgres))
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
  for (const child of children) child.kill("SIGKILL")
  for (const cleanup of cleanups) cleanup()
  log(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exit(1)
})
