import { resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { argNumber, argString, POSITIVE_INTEGER } from "@proctor/bench-shared"

const argValue = (name: string, fallback: number): number => argNumber(name, fallback, POSITIVE_INTEGER)

export const ROLLOUTS = argValue("--rollouts", 20_000)
export const ROUNDS = argValue("--rounds", 5)
export const WARMUP = argValue("--warmup", 5_000)
export const RSS_SEEDS = (argString("--rss-seeds") ?? "100000,1000000").split(",").map((text) => {
  const seeds = Number(text)
  if (!Number.isInteger(seeds) || seeds <= 0) throw new Error(`--rss-seeds: ${text} is not a positive integer`)
  return seeds
})
export const QUIET_WAIT_S = argNumber("--quiet-wait", 60)
export const RETRIES = argNumber("--retries", 3)
export const CONCURRENCY = 64
export const THROUGHPUT_TARGET = 0.7
export const WHOLE_PROCESS_TARGET = 0.8
export const RSS_TARGET_MB = 200
export const SECTION = "## runner-overhead"
export const CLI_BIN = resolve(argString("--cli") ?? fileURLToPath(new URL("bin.cjs", import.meta.resolve("proctor"))))
