import { loadPricingFile } from "@proctor/core"
import { Effect, Either } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { modelRateLimitsOf } from "../modelRateLimits.js"
import type { WorkerOptions } from "../program/worker.js"

/**
 * `proctor worker`: runs rollouts of a cluster's jobs until SIGTERM / Ctrl-C, which drain it (no new rollouts;
 * in-flight ones finish within the grace period or are handed back to the queue). A second signal hands them back at
 * once.
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
    const pricingOverrides = yield* Effect.either(
      options.pricing === undefined ? Effect.succeed([]) : loadPricingFile(options.pricing),
    )
    if (Either.isLeft(pricingOverrides)) {
      io.stderr.write(`proctor worker: --pricing: ${pricingOverrides.left.message}\n`)
      return ExitCode.Usage
    }
    const server = yield* Effect.promise(() => import("@proctor/server"))
    const worked = yield* Effect.either(
      server.runWorker({
        databaseUrl: databaseUrl!,
        cluster: { redisUrl: redisUrl!, prefix: options.redisPrefix },
        concurrency,
        lockDurationMs: lockSeconds * 1000,
        drainGraceMs: graceSeconds * 1000,
        intercept: options.intercept !== false,
        interceptorHost: options.interceptorHost,
        interceptorPort,
        interceptorPublicUrl: options.interceptorUrl,
        modelRateLimits: modelRateLimits.right,
        pricingOverrides: pricingOverrides.right,
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
