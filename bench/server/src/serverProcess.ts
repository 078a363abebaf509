/**
 * The job server under test, in its own process: `createJobServer` (packages/server) over embedded SQLite in a
 * data directory the bench made, as `proctor serve --data-dir DIR` runs it. Started by `main.ts` with `fork`
 * (an IPC channel) and one JSON argument:
 *
 *   node dist/serverProcess.js '{"dataDir": "/tmp/…", "maxSeedsPerJob": 100000, "rateLimit": {…} | false}'
 *
 * Prints one stdout line `{"url": …, "pid": N}` once listening. Over IPC it answers `{id, op: "memory", gc}` with
 * `process.memoryUsage()` (after a full GC when `gc` is set and the process runs with `--expose-gc`), and
 * `{id, op: "stop"}` by closing the server and exiting (so a `--cpu-prof` profile is written). It also exits
 * when the IPC channel closes, so a bench that dies leaves no server behind.
 */
import { answerIpc } from "@proctor/bench-shared"
import { createJobServer, type RateLimitOptions } from "@proctor/server"

interface Settings {
  readonly dataDir: string
  readonly maxSeedsPerJob: number
  readonly rateLimit: RateLimitOptions | false
}

interface Request {
  readonly op: "memory" | "stop"
  readonly gc?: boolean
}

const settings = JSON.parse(process.argv[2] ?? "{}") as Settings
const server = await createJobServer({
  dataDir: settings.dataDir,
  maxSeedsPerJob: settings.maxSeedsPerJob,
  rateLimit: settings.rateLimit,
  logger: false,
})
process.stdout.write(`${JSON.stringify({ url: server.url, pid: process.pid })}\n`)

let stopping: Promise<void> | null = null
const stop = () => {
  stopping ??= server.close().then(() => process.exit(0))
  return stopping
}

const gc = (globalThis as { gc?: () => void }).gc
answerIpc<Request>((request) => {
  if (request.op === "stop") {
    // Answered first, then closed.
    setImmediate(() => void stop())
    return {}
  }
  if (request.gc === true) gc?.()
  return { ...process.memoryUsage(), gcRan: request.gc === true && gc !== undefined }
})
process.on("disconnect", () => void stop())
process.on("SIGTERM", () => void stop())
