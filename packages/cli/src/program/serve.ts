import { integerFlag, numberFlag, portFlag } from "@proctor/core"
import type { Command } from "commander"
import { addFlags, type FlagValues, parsed, text } from "./flagTable.js"
import type { RunCommand } from "./RunCommand.js"

export const serveFlags = {
  dataDir: text(
    "--data-dir <dir>",
    "SQLite database and secret key directory (default PROCTOR_DATA_DIR, else .proctor without --database-url)",
  ),
  databaseUrl: text("--database-url <url>", "PostgreSQL instead of SQLite (default PROCTOR_DATABASE_URL)"),
  host: text("--host <host>", "interface to listen on", { default: "127.0.0.1" }),
  port: parsed("--port <port>", "port to listen on (0: any free port)", portFlag, { default: 8000 }),
  graceSeconds: parsed(
    "--grace-seconds <s>",
    "how long in-flight rollouts may finish on shutdown",
    numberFlag({ unit: "seconds", min: 0 }),
    { default: 30 },
  ),
  maxRunningJobs: parsed(
    "--max-running-jobs <n>",
    "jobs running at once; the rest wait as pending",
    integerFlag({ min: 1, max: 10_000 }),
  ),
  pricing: text(
    "--pricing <file>",
    "JSON prices (USD per token) that override or extend the maintained table, for the server's interceptor",
  ),
  redisUrl: text(
    "--redis-url <url>",
    "run as one API replica of a cluster: rollouts go through BullMQ on this Redis to `proctor worker` processes (needs --database-url; default PROCTOR_REDIS_URL)",
  ),
  redisPrefix: text("--redis-prefix <prefix>", "prefix of the cluster's Redis keys and channels", {
    default: "proctor",
  }),
}
export type ServeOptions = FlagValues<typeof serveFlags>

/** Declares `proctor serve`; its implementation (commands/serveCommand.ts) loads when it runs. */
export const registerServeCommand = (program: Command, run: RunCommand): void => {
  addFlags(
    program.command("serve").description("run the eval job server (synth-ai's job API plus proctor's)"),
    serveFlags,
  ).action((options: ServeOptions) =>
    run(async (io) => (await import("../commands/serveCommand.js")).serveCommand(options, io)),
  )
}
