import { Effect, Either } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { modelRateLimitsOf } from "../modelRateLimits.js"
import type { WorkerOptions } from "../program/worker.js"

/**
 * `proctor worker`: runs rollouts of a cluster's jobs until SIGTERM / Ctrl-C, which drain it (no new rollouts;
 * in-flight ones finish within the grace period or are handed back to the queue). A second signal stops at once.
 */
export const workerCommand = (options: WorkerOptions, io: Io): Effect.Effect<ExitCode> =>
  Effect.gen(function* () {
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
    const { concurrency, lockSeconds, graceSeconds, interceptorPort } = options
    const modelRateLimits = yield* Effect.either(modelRateLimitsOf(options.modelRateLimit, io.env))
    if (Either.isLeft(modelRateLimits)) {
      io.stderr.write(`proctor worker: ${modelRateLimits.left.message}\n`)
      return ExitCode.Usage
    }
    const server = yield* Effect.promise(() => import("@proctor/server"))
    const started = yield* Effect.either(
      Effect.tryPromise(() =>
        server.startRolloutWorker({
          databaseUrl: databaseUrl!,
          cluster: { redisUrl: redisUrl!, prefix: options.redisPrefix },
          concurrency,
          lockDurationMs: lockSeconds * 1000,
          intercept: options.intercept !== false,
          interceptorHost: options.interceptorHost,
          interceptorPort,
          interceptorPublicUrl: options.interceptorUrl,
          modelRateLimits: modelRateLimits.right,
        }),
      ),
    )
    if (Either.isLeft(started)) {
      const cause = started.left.error
      io.stderr.write(`proctor worker: ${cause instanceof Error ? cause.message : String(cause)}\n`)
      return ExitCode.Failed
    }
    const worker = started.right
    const interception = worker.interceptorUrl === null ? "no interception" : `interceptor at ${worker.interceptorUrl}`
    yield* Effect.async<void>((resume) => {
      let draining = false
      const uninstall = () => {
        process.off("SIGINT", onSignal)
        process.off("SIGTERM", onSignal)
      }
      function onSignal() {
        if (draining) {
          uninstall()
          resume(Effect.void)
          return
        }
        draining = true
        io.stderr.write("draining: no new rollouts; in-flight ones may finish (signal again to stop at once)\n")
        void worker.drain(graceSeconds * 1000).finally(() => {
          uninstall()
          resume(Effect.void)
        })
      }
      process.on("SIGINT", onSignal)
      process.on("SIGTERM", onSignal)
      // Ready only once the handlers are in (see serveCommand).
      io.stdout.write(
        `proctor worker ${worker.id} running up to ${concurrency} rollouts from Redis at ${server.redisHostOf(redisUrl!)} (${interception})\n`,
      )
      return Effect.sync(uninstall)
    })
    return ExitCode.Ok
  })
