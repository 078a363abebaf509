import { type ChildProcess, fork, spawn } from "node:child_process"
import { createServer } from "node:net"

/** Every process a bench started, so an interrupted run (Ctrl-C, SIGTERM) leaves none behind. */
const children = new Set<ChildProcess>()
const cleanups: Array<() => void> = []
const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null
const killAll = () => {
  for (const child of children) if (isRunning(child)) child.kill("SIGTERM")
  for (const cleanup of cleanups.splice(0)) cleanup()
}
process.once("exit", killAll)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    killAll()
    process.exit(130)
  })
}

/** Runs `cleanup` (synchronous) when the bench exits, however it exits: what is not a child, such as a database. */
export const atBenchExit = (cleanup: () => void): void => {
  cleanups.push(cleanup)
}

/** A port nobody listens on right now, for a server that must be told its port. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** Reads a child's readiness from what it has printed so far: the value once it is there, else undefined. */
export type Readiness<A> = (stdout: string) => A | undefined

/** The first stdout line, as JSON (`{"port": N}`, `{"url": …}`). */
export const jsonLine =
  <A>(): Readiness<A> =>
  (stdout) => {
    const end = stdout.indexOf("\n")
    return end === -1 ? undefined : (JSON.parse(stdout.slice(0, end)) as A)
  }

/** The first capture of `pattern` in stdout (`/listening on (http\S+)/`). */
export const printed =
  (pattern: RegExp): Readiness<string> =>
  (stdout) =>
    pattern.exec(stdout)?.[1]

/** The first match of `pattern`, with its captures. */
export const matched =
  (pattern: RegExp): Readiness<RegExpExecArray> =>
  (output) =>
    pattern.exec(output) ?? undefined

export type StartOptions<A> = (
  | {
      /** A Node script, run with this Node. */
      readonly script: string
      readonly execArgv?: ReadonlyArray<string>
    }
  | {
      /** A program other than Node (`redis-server`). */
      readonly command: string
    }
) & {
  /** What it is, for errors ("the task app"). */
  readonly what: string
  readonly args?: ReadonlyArray<string>
  readonly env?: NodeJS.ProcessEnv
  /** With an IPC channel (`child_process.fork`), for `ipcClient`. */
  readonly ipc?: boolean
  /** stdin a pipe the bench holds: the child can exit when it closes (`--exit-with-stdin`). */
  readonly stdinPipe?: boolean
  readonly ready: Readiness<A>
  /** Readiness may be printed on stderr too (which is then read, not passed through). */
  readonly readyOnStderr?: boolean
  /** How `stop` asks it to go; default SIGTERM. */
  readonly stopWith?: (child: ChildProcess) => Promise<unknown> | undefined
  /** A child still running this long after being asked is killed; default 10 s. */
  readonly killAfterMs?: number
}

export interface StartedProcess<A> {
  readonly child: ChildProcess
  readonly pid: number
  /** What `ready` read from its output. */
  readonly ready: A
  readonly exited: Promise<number | null>
  readonly stop: () => Promise<void>
}

/** Starts a bench process (registered, so it dies with the bench) and waits until its output says it is ready. */
export const startProcess = async <A>(options: StartOptions<A>): Promise<StartedProcess<A>> => {
  const stdio = [options.stdinPipe ? "pipe" : "ignore", "pipe", options.readyOnStderr ? "pipe" : "inherit"] as const
  const args = options.args ?? []
  const child =
    "command" in options
      ? spawn(options.command, [...args], { env: options.env, stdio: [...stdio] })
      : options.ipc
        ? fork(options.script, [...args], {
            env: options.env,
            execArgv: [...(options.execArgv ?? [])],
            stdio: [...stdio, "ipc"],
          })
        : spawn(process.execPath, [...(options.execArgv ?? []), options.script, ...args], {
            env: options.env,
            stdio: [...stdio],
          })
  children.add(child)
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child)
      resolve(code)
    }),
  )
  const outputs = options.readyOnStderr ? [child.stdout!, child.stderr!] : [child.stdout!]
  const ready = await new Promise<A>((resolve, reject) => {
    let output = ""
    const onData = (chunk: string) => {
      output += chunk
      const value = options.ready(output)
      if (value === undefined) return
      for (const stream of outputs) {
        stream.off("data", onData)
        // Keep draining: a child blocked on a full pipe would stall what is measured.
        stream.resume()
      }
      resolve(value)
    }
    for (const stream of outputs) stream.setEncoding("utf8").on("data", onData)
    void exited.then((code) =>
      reject(new Error(`${options.what} exited (${code}) before it was ready:\n${output.slice(-2000)}`)),
    )
  })
  let stopping: Promise<void> | null = null
  const stop = () => {
    stopping ??= (async () => {
      if (isRunning(child)) await (options.stopWith ?? ((c: ChildProcess) => c.kill("SIGTERM")))(child)
      const timer = setTimeout(() => child.kill("SIGKILL"), options.killAfterMs ?? 10_000)
      await exited
      clearTimeout(timer)
    })()
    return stopping
  }
  return { child, pid: child.pid!, ready, exited, stop }
}
