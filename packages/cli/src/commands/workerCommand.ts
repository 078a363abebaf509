import { Effect, Either } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { modelRateLimitsOf } from "../modelRateLimits.js"

export interface WorkerCommandOptions {
  readonly databaseUrl?: string | undefined
  readonly redisUrl?: string | undefined
  readonly redisPrefix?: string | undefined
  readonly concurrency?: string | undefined
  readonly lockSeconds?: string | undefined
  readonly graceSeconds?: string | undefined
  readonly interceptorHost?: string | undefined
  readonly interceptorPort?: string | undefined
  readonly interceptorUrl?: string | undefined
  readonly intercept?: boolean | undefined
  /** `--model-rate-limit`, repeated: see modelRateLimits.ts. */
  readonly modelRateLimit?: ReadonlyArray<string> | undefined
}

const intFlag = (flag: string, raw: string, min: number, max: number) => {
  const n = Number(raw)
  return Number.isInteger(n) && n >= min && n <= max
    ? Either.right(n)
    : Either.left(`${flag}: expected an integer from ${min} to ${max}, got "${raw}"`)
}

const secondsFlag = (flag: string, raw: string, min: number) => {
  const n = Number(raw)
  return Number.isFinite(n) && n >= min
    ? Either.right(n)
    : Either.left(`${flag}: expected a number of seconds ≥ ${min}, got "${raw}"`)
}

/**
 * `proctor worker`: runs rollouts of a cluster's jobs until SIGTERM / Ctrl-C, which drain it (no new rollouts;
 * in-flight ones finish within the grace period or are handed back to the queue). A second signal hands them back at
 * once.
 */
export const workerCommand = (options: WorkerCommandOptions, io: Io): Effect.Effect<ExitCode> =>
  Effect.gen(function* () {
    const flags = Either.all({
      concurrency: intFlag("--concurrency", options.concurrency ?? "8", 1, 10_000),
      lockSeconds: secondsFlag("--lock-seconds", options.lockSeconds ?? "30", 1),
      graceSeconds: secondsFlag("--grace-seconds", options.graceSeconds ?? "30", 0),
      interceptorPort: intFlag("--interceptor-port", options.interceptorPort ?? "0", 0, 65_535),
    })
    if (Either.isLeft(flags)) {
      io.stderr.write(`proctor worker: ${flags.left}\n`)
      return ExitCode.Usage
    }
    const databaseUrl = options.databaseUrl ?? io.env.PROCTOR_DATABASE_URL
    const redisUrl = options.redisUrl ?? io.env.PROCTOR_REDIS_URL
    const missing = [
      ...(databaseUrl === undefined ? ["--database-url (or PROCTOR_DATABASE_URL)"] : []),
      ...(redisUrl === undefined ? ["--redis-url (or PROCTOR_REDIS_URL)"] : []),
      ...((io.env.PROCTOR_SECRET_KEY ?? "").trim() === ""
        ? ["PROCTOR_SECRET_KEY (the key the API replicas seal task-app keys with)"]
        : []),
    ]
    if (missing.length > 0) {
      io.stderr.write(`proctor worker: missing ${missing.join(", ")}\n`)
      return ExitCode.Usage
    }
    const { concurrency, lockSeconds, graceSeconds, interceptorPort } = flags.right
    const modelRateLimits = yield* Effect.either(modelRateLimitsOf(options.modelRateLimit, io.env))
    if (Either.isLeft(modelRateLimits)) {
      io.stderr.write(`proctor worker: ${modelRateLimits.left.message}\n`)
      return ExitCode.Usage
    }
    const server = yield* Effect.promise(() => import("@proctor/server"))
    const worked = yield* Effect.either(
      server.runWorker({
        databaseUrl: databaseUrl!,
        cluster: { redisUrl: redisUrl!, prefix: options.redisPrefix ?? server.DEFAULT_REDIS_PREFIX },
        concurrency,
        lockDurationMs: lockSeconds * 1000,
        drainGraceMs: graceSeconds * 1000,
        intercept: options.intercept !== false,
        interceptorHost: options.interceptorHost,
        interceptorPort,
        interceptorPublicUrl: options.interceptorUrl,
        modelRateLimits: modelRateLimits.right,
        // Printed once the signal handlers are in (see serveCommand).
        onReady: (worker) =>
          Effect.sync(() => {
            const interception =
              worker.interceptorUrl === null ? "no interception" : `interceptor at ${worker.interceptorUrl}`
            io.stdout.write(
              `proctor worker ${worker.id} running up to ${concurrency} rollouts from Redis at ${server.redisHostOf(redisUrl!)} (${interception})\n`,
            )
          }),
        onDrain: Effect.sync(() =>
          io.stderr.write("draining: no new rollouts; in-flight ones may finish (signal again to stop at once)\n"),
        ),
      }),
    )
    if (Either.isLeft(worked)) {
      io.stderr.write(`proctor worker: ${worked.left.message}\n`)
      return ExitCode.Failed
    }
    return ExitCode.Ok
  })
