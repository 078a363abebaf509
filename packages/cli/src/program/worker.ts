import type { Command } from "commander"
import type { WorkerCommandOptions } from "../commands/workerCommand.js"
import { collectSpec } from "../modelRateLimits.js"
import type { RunCommand } from "./RunCommand.js"

/** Declares `proctor worker`; its implementation (commands/workerCommand.ts) loads when it runs. */
export const registerWorkerCommand = (program: Command, run: RunCommand): void => {
  program
    .command("worker")
    .description("run rollouts of a cluster's jobs (API replicas: proctor serve --redis-url)")
    .option("--database-url <url>", "the cluster's PostgreSQL (default PROCTOR_DATABASE_URL)")
    .option("--redis-url <url>", "the cluster's Redis (default PROCTOR_REDIS_URL)")
    .option("--redis-prefix <prefix>", "prefix of the cluster's Redis keys and channels", "proctor")
    .option("--concurrency <n>", "rollouts this worker runs at once", "8")
    .option(
      "--lock-seconds <s>",
      "how long a rollout of a worker that stopped answering stays claimed before another worker runs it",
      "30",
    )
    .option(
      "--grace-seconds <s>",
      "on SIGTERM, how long in-flight rollouts may finish before they are handed back",
      "30",
    )
    .option("--interceptor-host <host>", "interface this worker's model-call interceptor listens on", "127.0.0.1")
    .option("--interceptor-port <port>", "its port (0: any free port)", "0")
    .option("--interceptor-url <url>", "its URL as task apps reach it (default http://HOST:PORT/interceptor)")
    .option("--no-intercept", "do not route model calls through the interceptor")
    .option(
      "--model-rate-limit <spec>",
      "limit calls to a model, shared by every worker: <base URL>=<N>rpm[,<N>tpm], repeatable (default PROCTOR_MODEL_RATE_LIMITS)",
      collectSpec,
    )
    .action((options: WorkerCommandOptions) =>
      run(async (io) => (await import("../commands/workerCommand.js")).workerCommand(options, io)),
    )
}
