import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { argNumber, argString } from "@proctor/bench-shared"

export const RATE = argNumber("--rate", 500)
export const DURATION_S = argNumber("--duration", 25)
export const STREAM_DURATION_S = argNumber("--stream-duration", 15)
export const SLOW_DURATION_S = argNumber("--slow-duration", 8)
/** Each of the agents' APIs (Responses, Anthropic messages), JSON and SSE, upstream +0 ms; 0 skips them. */
export const API_DURATION_S = argNumber("--api-duration", 10)
export const WARMUP_S = argNumber("--warmup", 3)
/** After each latency phase, the same schedule again with the event-loop probe's timer stopped, for CPU per call. */
export const CPU_DURATION_S = argNumber("--cpu-duration", 9)
/** How many slices that time is cut into, each followed by the same slice through the bare proxy. */
export const CPU_SLICES = Math.max(1, Math.round(argNumber("--cpu-slices", 3)))
export const CIDS = Math.max(1, Math.round(argNumber("--cids", 50)))
export const CALLS_PER_ROLLOUT = Math.max(1, Math.round(argNumber("--calls-per-rollout", 20)))
export const MEMORY_CALLS = Math.round(argNumber("--memory-calls", 100_000))
export const MEMORY_ROLLOUTS = Math.max(1, Math.round(argNumber("--memory-rollouts", 1_000)))
export const MEMORY_CONCURRENCY = Math.max(1, Math.round(argNumber("--memory-concurrency", 16)))
export const MEMORY_SAMPLES = 10
export const QUIET_WAIT_S = argNumber("--quiet-wait", 20)
export const PROFILE_DIR = argString("--interceptor-prof")
/** Extra node/V8 flags for the interceptor process, e.g. "--single-threaded-gc --max-semi-space-size=32". */
export const INTERCEPTOR_FLAGS = (argString("--interceptor-flags") ?? "").split(/\s+/).filter((flag) => flag !== "")
export const SLOW_LATENCY_MS = 20
export const UPSTREAM_KEY = "sk-bench-upstream-key"
export const TARGET_P50_MS = 1
export const TARGET_P99_MS = 5
/** Interceptor CPU per proxied 1 KB chat completion, µs (issue 13). */
export const TARGET_JSON_CPU_US = 200
export const TARGET_SSE_CPU_US = 300
/** Flat: the fitted growth of the post-GC heap over 100,000 calls stays under this (a leak of one call's record is KBs per call). */
export const FLAT_HEAP_MB_PER_100K = 2
export const FLAT_RSS_MB_PER_100K = 10

const here = dirname(fileURLToPath(import.meta.url))
export const INTERCEPTOR_SCRIPT = join(here, "interceptorProcess.js")
export const BARE_PROXY_SCRIPT = join(here, "bareProxyProcess.js")
export const BASELINE_MAIN = join(
  dirname(fileURLToPath(import.meta.resolve("@proctor/example-baseline-model"))),
  "main.js",
)
export const SECTION = "## interceptor"
