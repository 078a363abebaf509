import { integerFlag, numberFlag, portFlag, repeatableFlag } from "@proctor/core"
import type { Command } from "commander"
import { addFlags, type FlagValues, parsed, text, toggle } from "./flagTable.js"
import type { RunCommand } from "./RunCommand.js"

export const workerFlags = {
  databaseUrl: text("--database-url <url>", "the cluster's PostgreSQL (default PROCTOR_DATABASE_URL)"),
  redisUrl: text("--redis-url <url>", "the cluster's Redis (default PROCTOR_REDIS_URL)"),
  redisPrefix: text("--redis-prefix <prefix>", "prefix of the cluster's Redis keys and channels", {
    default: "proctor",
  }),
  concurrency: parsed("--concurrency <n>", "rollouts this worker runs at once", integerFlag({ min: 1, max: 10_000 }), {
    default: 8,
  }),
  lockSeconds: parsed(
    "--lock-seconds <s>",
    "how long a rollout of a worker that stopped answering stays claimed before another worker runs it",
    numberFlag({ unit: "seconds", min: 1 }),
    { default: 30 },
  ),
  graceSeconds: parsed(
    "--grace-seconds <s>",
    "on SIGTERM, how long in-flight rollouts may finish before they are handed back",
    numberFlag({ unit: "seconds", min: 0 }),
    { default: 30 },
  ),
  interceptorHost: text("--interceptor-host <host>", "interface this worker's model-call interceptor listens on", {
    default: "127.0.0.1",
  }),
  interceptorPort: parsed("--interceptor-port <port>", "its port (0: any free port)", portFlag, { default: 0 }),
  interceptorUrl: text(
    "--interceptor-url <url>",
    "its URL as task apps reach it (default http://HOST:PORT/interceptor)",
  ),
  pricing: text(
    "--pricing <file>",
    "JSON prices (USD per token) that override or extend the maintained table, for this worker's interceptor",
  ),
  intercept: toggle("--no-intercept", "do not route model calls through the interceptor"),
  modelRateLimit: parsed(
    "--model-rate-limit <spec>",
    "limit calls to a model, shared by every worker: <base URL>=<N>rpm[,<N>tpm], repeatable (default PROCTOR_MODEL_RATE_LIMITS)",
    repeatableFlag,
  ),
}
export type WorkerOptions = FlagValues<typeof workerFlags>

/** Declares `proctor worker`; its implementation (commands/workerCommand.ts) loads when it runs. */
export const registerWorkerCommand = (program: Command, run: RunCommand): void => {
  addFlags(
    program.command("worker").description("run rollouts of a cluster's jobs (API replicas: proctor serve --redis-url)"),
    workerFlags,
  ).action((options: WorkerOptions) =>
    run(async (io) => (await import("../commands/workerCommand.js")).workerCommand(options, io)),
  )
}
