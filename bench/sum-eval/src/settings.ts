import { resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { argNumber, argString, POSITIVE_INTEGER } from "@proctor/bench-shared"

export const PROMPTS = argNumber("--prompts", 2_000, POSITIVE_INTEGER)
export const ROUNDS = argNumber("--rounds", 5, POSITIVE_INTEGER)
export const QUIET_WAIT_S = argNumber("--quiet-wait", 60)
export const RETRIES = argNumber("--retries", 2)
/** The directory promptfoo was installed in (`npm i promptfoo node@22` there); absent, promptfoo is not measured. */
export const PROMPTFOO_DIR = argString("--promptfoo")
export const CONCURRENCY = 32
export const MODEL_LATENCY_MS = 20
export const MODEL_NAME = "baseline"
export const BARE_LOOP_TARGET = 1.3
export const PROMPTFOO_TARGET = 8
export const RSS_TARGET_MB = 150
export const SECTION = "## sum-eval"
export const CLI_BIN = resolve(argString("--cli") ?? fileURLToPath(new URL("bin.cjs", import.meta.resolve("proctor"))))
