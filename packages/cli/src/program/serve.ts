import type { Command } from "commander"
import type { ServeCommandOptions } from "../commands/serveCommand.js"
import type { RunCommand } from "./RunCommand.js"

/** Declares `proctor serve`; its implementation (commands/serveCommand.ts) loads when it runs. */
export const registerServeCommand = (program: Command, run: RunCommand): void => {
  program
    .command("serve")
    .description("run the eval job server (synth-ai's job API plus proctor's)")
    .option(
      "--data-dir <dir>",
      "SQLite database and secret key directory (default PROCTOR_DATA_DIR, else .proctor without --database-url)",
    )
    .option("--database-url <url>", "PostgreSQL instead of SQLite (default PROCTOR_DATABASE_URL)")
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on (0: any free port)", "8000")
    .option("--grace-seconds <s>", "how long in-flight rollouts may finish on shutdown", "30")
    .option("--max-running-jobs <n>", "jobs running at once; the rest wait as pending")
    .option(
      "--redis-url <url>",
      "run as one API replica of a cluster: rollouts go through BullMQ on this Redis to `proctor worker` processes (needs --database-url; default PROCTOR_REDIS_URL)",
    )
    .option("--redis-prefix <prefix>", "prefix of the cluster's Redis keys and channels", "proctor")
    .action((options: ServeCommandOptions) =>
      run(async (io) => (await import("../commands/serveCommand.js")).serveCommand(options, io)),
    )
}
