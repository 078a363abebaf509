import { ipcClient, jsonLine, startProcess } from "@proctor/bench-shared"
import { BARE_SCRIPT, PROFILE_DIR, SERVER_SCRIPT } from "./settings.js"

export interface MemoryUsage {
  readonly rss: number
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
  readonly arrayBuffers: number
}

export interface ServerProcess {
  readonly pid: number
  readonly url: string
  /** The server's `process.memoryUsage()`, after a full GC when `gc`. */
  readonly memory: (gc: boolean) => Promise<MemoryUsage>
  readonly stop: () => Promise<void>
}

/** The job server under test (`serverProcess.ts`) on `dataDir`, in its own process, driven over IPC. */
export const startServer = async (dataDir: string, maxSeedsPerJob: number): Promise<ServerProcess> => {
  const settings = {
    dataDir,
    maxSeedsPerJob,
    // The default (burst 120, 20/s per key) would answer this bench with 429s after its first 120 requests:
    // the limiter still runs on every request, with a bucket that never empties.
    rateLimit: { burst: 1e12, perSecond: 1e12 },
  }
  let call: ReturnType<typeof ipcClient> | null = null
  const server = await startProcess({
    what: "the job server",
    script: SERVER_SCRIPT,
    args: [JSON.stringify(settings)],
    execArgv: ["--expose-gc", ...(PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`])],
    ipc: true,
    ready: jsonLine<{ url: string }>(),
    // Asked over IPC, so it closes the server and exits by itself (a --cpu-prof profile is written).
    stopWith: (child) => (child.connected ? call?.({ op: "stop" }) : undefined),
    killAfterMs: 15_000,
  })
  call = ipcClient(server.child, "the job server")
  const ask = call
  return {
    pid: server.pid,
    url: server.ready.url,
    memory: (gc) => ask<MemoryUsage>({ op: "memory", gc }),
    stop: server.stop,
  }
}

export interface PortProcess {
  readonly pid: number
  readonly origin: string
  readonly stop: () => Promise<void>
}

/** The limit: a bare fastify server (`bareProcess.ts`) answering the status body in `bodyFile` on its one route. */
export const startBare = async (bodyFile: string): Promise<PortProcess> => {
  const bare = await startProcess({
    what: "the bare fastify server",
    script: BARE_SCRIPT,
    args: [bodyFile, "--exit-with-stdin"],
    stdinPipe: true,
    ready: jsonLine<{ port: number }>(),
  })
  return { pid: bare.pid, origin: `http://127.0.0.1:${bare.ready.port}`, stop: bare.stop }
}
