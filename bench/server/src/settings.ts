import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { argNumber, argString, REPO_ROOT, waitForQuiet } from "@proctor/bench-shared"

export const DURATION_S = Math.max(1, Math.round(argNumber("--duration", 10)))
export const ROUNDS = Math.max(1, Math.round(argNumber("--rounds", 3)))
export const CONNECTIONS = Math.max(1, Math.round(argNumber("--connections", 64)))
export const WARMUP_S = Math.round(argNumber("--warmup", 3))
export const BIG_SEEDS = Math.round(argNumber("--seeds", 100_000))
export const BIG_CONCURRENCY = Math.max(1, Math.round(argNumber("--concurrency", 64)))
export const STREAMS = Math.max(1, Math.round(argNumber("--streams", 3)))
export const QUIET_WAIT_S = argNumber("--quiet-wait", 60)
export const PROFILE_DIR = argString("--server-prof")
export const SMALL_SEEDS = 10
export const PIPELINING = 1
/**
 * The job server's extra figure: status of the big job, whose aggregate runs over every stored row. One connection,
 * so each request's time is its service time (64 would queue behind one another towards autocannon's timeout).
 */
export const BIG_STATUS_DURATION_S = 5
export const TARGET_RPS = 5_000
export const TARGET_RATIO = 0.5
/** Issue 13: the embedded job server runs a job at least this share of `proctor eval`'s in-run rate. */
export const SERVER_VS_CLI_TARGET = 0.5
export const CLI_BIN = join(REPO_ROOT, "packages/cli/dist/bin.cjs")
/** Flat: RSS grows by less than this fraction of what holding every row's JSON text would take. */
export const FLAT_FRACTION = 0.25
/** V8 and malloc give freed pages back just after a GC: RSS is read this long after it. */
export const AFTER_GC_SETTLE_MS = 100
/** better-sqlite3 opens databases with `cache_size = -16000`: up to this many bytes of page cache. */
export const SQLITE_PAGE_CACHE_BYTES = 16_000 * 1024
export const JOB_DEADLINE_MS = 20 * 60_000

const here = dirname(fileURLToPath(import.meta.url))
export const SERVER_SCRIPT = join(here, "serverProcess.js")
export const BARE_SCRIPT = join(here, "bareProcess.js")
export const SECTION = "## server"

/** Waits for the machine to go quiet (other than this bench and `pids`), up to --quiet-wait seconds. */
export const quiet = (pids: ReadonlyArray<number>) => waitForQuiet(pids, { maxSeconds: QUIET_WAIT_S })
