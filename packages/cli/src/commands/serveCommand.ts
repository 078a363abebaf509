import { join } from "node:path"
import { loadPricingFile } from "@proctor/core"
import { Effect, Either } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { proctorCommand } from "../invocation.js"
import type { ServeOptions } from "../program/serve.js"

/** Where `proctor serve` and `proctor keys` keep the job database unless told otherwise. */
export const defaultDataDir = (env: Readonly<Record<string, string | undefined>>): string =>
  env.PROCTOR_DATA_DIR ?? ".proctor"

/**
 * `proctor serve`: the eval job server until SIGTERM / Ctrl-C, which drain it. The server package is loaded only
 * here, so other commands do not pay for fastify and the SQL drivers at startup.
 */
export const serveCommand = (options: ServeOptions, io: Io): Effect.Effect<ExitCode> =>
  Effect.gen(function* () {
    const { port, maxRunningJobs, graceSeconds } = options
    const databaseUrl = options.databaseUrl ?? io.env.PROCTOR_DATABASE_URL
    const redisUrl = options.redisUrl ?? io.env.PROCTOR_REDIS_URL
    if (redisUrl !== undefined && databaseUrl === undefined) {
      io.stderr.write(
        "proctor serve: --redis-url: a cluster keeps its jobs in PostgreSQL; give --database-url (or PROCTOR_DATABASE_URL) too\n",
      )
      return ExitCode.Usage
    }
    // SQLite's data directory holds the key beside the database. PostgreSQL has no such place: a key file
    // written into whichever directory the server happened to start from seals keys no other server can open.
    const dataDir = options.dataDir ?? (databaseUrl === undefined ? defaultDataDir(io.env) : io.env.PROCTOR_DATA_DIR)
    const keyFromEnv = (io.env.PROCTOR_SECRET_KEY ?? "").trim() !== ""
    if (dataDir === undefined && !keyFromEnv) {
      io.stderr.write(
        "proctor serve: with --database-url (or PROCTOR_DATABASE_URL) the secret key that seals task-app keys " +
          "comes from PROCTOR_SECRET_KEY (32 random bytes in base64: `openssl rand -base64 32`; the same for " +
          "every server on that database) or from --data-dir DIR (kept in DIR/secret.key)\n",
      )
      return ExitCode.Usage
    }
    const pricingOverrides = yield* Effect.either(
      options.pricing === undefined ? Effect.succeed([]) : loadPricingFile(options.pricing),
    )
    if (Either.isLeft(pricingOverrides)) {
      io.stderr.write(`proctor serve: --pricing: ${pricingOverrides.left.message}\n`)
      return ExitCode.Usage
    }
    const server = yield* Effect.promise(() => import("@proctor/server"))
    const keySource = keyFromEnv ? "PROCTOR_SECRET_KEY" : join(dataDir!, "secret.key")
    const cluster =
      redisUrl === undefined ? "" : `, rollouts to workers through Redis at ${server.redisHostOf(redisUrl)}`
    const where = `${databaseUrl === undefined ? `data in ${dataDir}` : "data in PostgreSQL"}${cluster}, secret key from ${keySource}`
    const store = databaseUrl === undefined && dataDir !== undefined ? ["--data-dir", dataDir] : []
    // The first signal drains (in-flight rollouts finish, unfinished jobs stay `running` and resume on the
    // next start); a second one closes at once.
    const served = yield* Effect.either(
      server.serve({
        dataDir,
        databaseUrl,
        host: options.host,
        port,
        drainGraceMs: graceSeconds * 1000,
        maxRunningJobs,
        pricingOverrides: pricingOverrides.right,
        redisUrl,
        redisPrefix: options.redisPrefix,
        // Printed once the signal handlers are in: a script that signals on seeing this line reaches them.
        onReady: (jobServer) =>
          Effect.sync(() => {
            io.stdout.write(`proctor job server listening on ${jobServer.url} (${where})\n`)
            io.stdout.write(`  API keys: ${proctorCommand("keys", "create", "--name", "NAME", ...store)}\n`)
          }),
        onDrain: Effect.sync(() =>
          io.stderr.write("draining: no new rollouts; in-flight ones may finish (signal again to stop at once)\n"),
        ),
      }),
    )
    if (Either.isLeft(served)) {
      io.stderr.write(`proctor serve: ${served.left.message}\n`)
      return ExitCode.Failed
    }
    return ExitCode.Ok
  })
