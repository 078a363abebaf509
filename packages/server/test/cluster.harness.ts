import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { waitFor } from "@proctor/test-kit"
import { Redis } from "ioredis"
import { createApiKey } from "../src/index.js"
import { apiClient, sleep } from "./api.harness.js"
import { createTestDatabase } from "./jobs.pg.js"

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
/** The built CLI: the cluster's processes are started exactly as a user starts them. */
export const proctorBin = join(repoRoot, "packages/cli/dist/bin.cjs")

export const REDIS_URL = "redis://127.0.0.1:6379"

export interface ClusterProcess {
  readonly name: string
  readonly child: ChildProcess
  /** Its first stdout line (the banner). */
  readonly banner: string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly output: () => string
}

export const spawned = new Set<ChildProcess>()

/** Kills every process a test started (SIGKILL: a test's end need not wait for drains). */
export const killAll = () => {
  for (const child of spawned) child.kill("SIGKILL")
}

const startProcess = async (name: string, args: ReadonlyArray<string>, env: Record<string, string>) => {
  if (!existsSync(proctorBin)) throw new Error(`build the CLI first (${proctorBin} is missing): pnpm build`)
  const child = spawn(process.execPath, [proctorBin, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  spawned.add(child)
  let output = ""
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      spawned.delete(child)
      resolve({ code, signal })
    }),
  )
  const banner = await new Promise<string>((resolve, reject) => {
    let stdout = ""
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
      output += chunk
      if (stdout.includes("\n")) resolve(stdout.split("\n")[0]!)
    })
    void exited.then(({ code }) => reject(new Error(`${name} exited with ${code}: ${output}`)))
  })
  return { name, child, banner, exited, output: () => output } satisfies ClusterProcess
}

/** Polls `check` every `everyMs` (status reads aggregate in PostgreSQL: a tight loop would load the cluster). */
export const waitUntil = <A>(what: string, check: () => Promise<A | undefined>, timeoutMs = 45_000, everyMs = 250) =>
  waitFor(what, check, { timeoutMs, everyMs, ignoreErrors: true })

/** A free TCP port on loopback (for a Redis server of the test's own). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** `redis-server` on its own port without persistence: a restart comes back empty. */
export const startRedisServer = async (port: number) => {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--save", "", "--appendonly", "no", "--bind", "127.0.0.1"],
    {
      stdio: "ignore",
    },
  )
  spawned.add(child)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  void exited.then(() => spawned.delete(child))
  const redis = new Redis(port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null })
  redis.on("error", () => {})
  await waitFor(`redis-server on port ${port}`, async () => {
    try {
      await redis.connect().catch(() => {})
      return (await redis.ping()) === "PONG" ? true : undefined
    } catch {
      return undefined
    }
  })
  redis.disconnect()
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill("SIGKILL")
      await exited
    },
  }
}

export interface Cluster {
  readonly databaseUrl: string
  readonly redisUrl: string
  readonly prefix: string
  /** The environment every process of the cluster shares (`PROCTOR_SECRET_KEY`). */
  readonly env: Readonly<Record<string, string>>
  readonly key: string
  readonly apis: Array<ClusterProcess & { readonly url: string }>
  readonly workers: Array<ClusterProcess>
  readonly startApi: () => Promise<ClusterProcess & { readonly url: string }>
  readonly startWorker: (extra?: ReadonlyArray<string>) => Promise<ClusterProcess>
  readonly client: (api?: number) => ReturnType<typeof apiClient>
  readonly cleanup: () => Promise<void>
}

/**
 * A cluster of real processes on a fresh PostgreSQL database and a Redis key prefix of its own: `apis` API replicas
 * (`proctor serve --redis-url`) and `workers` workers (`proctor worker`), all from the built CLI.
 */
export const startCluster = async (options: {
  readonly apis: number
  readonly workers: number
  readonly redisUrl?: string
  readonly workerConcurrency?: number
  /** The workers' `--lock-seconds`: how soon a killed worker's rollouts run elsewhere. */
  readonly lockSeconds?: number
  /** The workers' `--grace-seconds` (SIGTERM). Default 2. */
  readonly graceSeconds?: number
}): Promise<Cluster> => {
  const database = await createTestDatabase()
  const redisUrl = options.redisUrl ?? REDIS_URL
  const prefix = `proctor-test-${randomBytes(6).toString("hex")}`
  const env = { PROCTOR_SECRET_KEY: randomBytes(32).toString("base64") }
  const common = ["--database-url", database.url, "--redis-url", redisUrl, "--redis-prefix", prefix]
  const apis: Cluster["apis"] = []
  const workers: Array<ClusterProcess> = []
  let workersStarted = 0
  const startApi = async () => {
    const api = await startProcess(`api ${apis.length}`, ["serve", ...common, "--port", "0"], env)
    const url = /listening on (http:\/\/\S+)/.exec(api.banner)?.[1]
    if (url === undefined) throw new Error(`no URL in "${api.banner}"`)
    const started = { ...api, url }
    apis.push(started)
    return started
  }
  const startWorker = async (extra: ReadonlyArray<string> = []) => {
    const worker = await startProcess(
      `worker ${++workersStarted}`,
      [
        "worker",
        ...common,
        "--concurrency",
        String(options.workerConcurrency ?? 32),
        "--lock-seconds",
        String(options.lockSeconds ?? 4),
        "--grace-seconds",
        String(options.graceSeconds ?? 2),
        ...extra,
      ],
      env,
    )
    workers.push(worker)
    return worker
  }
  // The first replica creates the schema; the rest start on it at once.
  await startApi()
  await Promise.all([
    ...Array.from({ length: options.apis - 1 }, startApi),
    ...Array.from({ length: options.workers }, () => startWorker()),
  ])
  const { key } = await createApiKey({ databaseUrl: database.url, name: "cluster-test" })
  return {
    databaseUrl: database.url,
    redisUrl,
    prefix,
    env,
    key,
    apis,
    workers,
    startApi,
    startWorker,
    client: (api = 0) => {
      const live = apis.filter((a) => a.child.exitCode === null && a.child.signalCode === null)
      return apiClient((live[api] ?? live[0]!).url, key)
    },
    cleanup: async () => {
      killAll()
      await sleep(50)
      await database.drop().catch(() => {})
      await deleteRedisPrefix(redisUrl, prefix)
    },
  }
}

/** Removes a test's keys from the shared Redis (never FLUSHALL: other tests use it at the same time). */
const deleteRedisPrefix = async (url: string, prefix: string) => {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => null })
  redis.on("error", () => {})
  try {
    let cursor = "0"
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000)
      cursor = next
      if (keys.length > 0) await redis.del(...keys)
    } while (cursor !== "0")
  } catch {
    // a test's own Redis may be gone already
  } finally {
    redis.disconnect()
  }
}
