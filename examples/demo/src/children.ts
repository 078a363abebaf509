import { type ChildProcess, spawn } from "node:child_process"
import { createInterface } from "node:readline"

/** The built watchdog, found from `src/` (tests) as from `dist/`. */
const WATCHDOG = new URL("../dist/watchdog.js", import.meta.url).href
const STDERR_HEAD_LINES = 8
const STDERR_TAIL_LINES = 4

export interface SpawnOptions {
  /** Shown in messages and as the prefix of the child's forwarded output. */
  readonly name: string
  readonly script: string
  readonly args?: ReadonlyArray<string>
  readonly env: NodeJS.ProcessEnv
  /** `inherit` streams the child's stdout and stderr straight to ours (the CLI: progress, table, summary). */
  readonly output: "pipe" | "inherit"
}

export interface StartedServer {
  readonly name: string
  readonly url: string
  readonly child: ChildProcess
}

export class StartupError extends Error {
  override readonly name = "StartupError"
}

const exitDescription = (code: number | null, signal: NodeJS.Signals | null): string =>
  signal === null ? `exit code ${code}` : `signal ${signal}`

const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null

/**
 * Every process the demo starts, so that all of them are stopped on the way out: at the end, on an error,
 * on Ctrl-C. Each child runs in its own process group (`detached`), so a Ctrl-C in the terminal reaches the
 * demo only and the demo decides who hears about it; each also runs the watchdog, which stops it should the
 * demo die without cleaning up.
 */
export class Children {
  private readonly live = new Set<ChildProcess>()

  spawn(options: SpawnOptions): ChildProcess {
    const child = spawn(process.execPath, ["--import", WATCHDOG, options.script, ...(options.args ?? [])], {
      env: options.env,
      detached: true,
      stdio: ["pipe", options.output, options.output],
    })
    this.live.add(child)
    child.once("exit", () => this.live.delete(child))
    child.once("error", () => this.live.delete(child))
    // An EPIPE on the watchdog pipe of a child that already exited is expected, not an error of the demo's.
    child.stdin?.on("error", () => {})
    return child
  }

  /** SIGTERM to every live child, then SIGKILL to whichever has not exited after `graceMs`. */
  async stopAll(graceMs = 5_000): Promise<void> {
    const children = [...this.live]
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (hasExited(child)) return resolve()
            const timer = setTimeout(() => {
              signalGroup(child, "SIGKILL")
              resolve()
            }, graceMs)
            child.once("exit", () => {
              clearTimeout(timer)
              resolve()
            })
            signalGroup(child, "SIGTERM")
          }),
      ),
    )
  }

  /** Last resort from a synchronous `exit` handler: no waiting is possible there. */
  killAllNow(): void {
    for (const child of this.live) signalGroup(child, "SIGKILL")
  }
}

/** Signals the child's whole process group (it leads one, being detached), falling back to the child alone. */
export const signalGroup = (child: ChildProcess, signal: NodeJS.Signals): void => {
  if (child.pid === undefined || hasExited(child)) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    try {
      child.kill(signal)
    } catch {
      // already gone
    }
  }
}

const prefixLines = (stream: NodeJS.ReadableStream, prefix: string, sink: (line: string) => void) =>
  createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => sink(`${prefix}${line}`))

/**
 * Starts a server whose stdout announces `… listening on URL` and resolves to that URL. Fails, naming the
 * server, when it exits first, cannot be spawned, stays silent for `timeoutMs`, or `signal` aborts.
 * Later output is forwarded with a `[name]` prefix.
 */
export const startServer = (
  children: Children,
  options: Omit<SpawnOptions, "output"> & { readonly timeoutMs: number; readonly signal: AbortSignal },
): Promise<StartedServer> =>
  new Promise((resolve, reject) => {
    const { name, timeoutMs, signal } = options
    if (signal.aborted) return reject(new StartupError(`${name}: interrupted before it started`))
    const child = children.spawn({ ...options, output: "pipe" })
    const prefix = `[${name}] `
    const stderrHead: string[] = []
    const stderrTail: string[] = []
    let stderrSkipped = 0
    let settled = false

    // A crash's message sits at the top of its stderr, the runtime's version at the bottom; the middle is stack.
    const tail = () => {
      if (stderrHead.length === 0) return ""
      const skipped = stderrSkipped === 0 ? [] : [`… ${stderrSkipped} more lines …`]
      return `; its stderr:\n    ${[...stderrHead, ...skipped, ...stderrTail].join("\n    ")}`
    }
    const settle = (outcome: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal.removeEventListener("abort", onAbort)
      outcome()
    }
    const fail = (message: string) => settle(() => reject(new StartupError(message)))
    const onAbort = () => fail(`${name}: interrupted while starting`)

    const timer = setTimeout(
      () => fail(`${name} did not print its URL within ${timeoutMs / 1000} s (${options.script})${tail()}`),
      timeoutMs,
    )
    signal.addEventListener("abort", onAbort, { once: true })

    if (child.stderr !== null) {
      prefixLines(child.stderr, prefix, (line) => {
        const text = line.slice(prefix.length)
        if (stderrHead.length < STDERR_HEAD_LINES) stderrHead.push(text)
        else if (stderrTail.push(text) > STDERR_TAIL_LINES) {
          stderrTail.shift()
          stderrSkipped++
        }
        // Before the URL the tail goes into the error message; after it, the output is the user's to see.
        if (settled) process.stderr.write(`${line}\n`)
      })
    }
    if (child.stdout !== null) {
      prefixLines(child.stdout, prefix, (line) => {
        const url = settled ? undefined : /listening on (https?:\/\/\S+)/.exec(line)?.[1]
        if (url !== undefined) settle(() => resolve({ name, url, child }))
        else process.stdout.write(`${line}\n`)
      })
    }
    child.once("error", (error) => fail(`${name} could not be started: ${error.message}`))
    child.once("exit", (code, exitSignal) => {
      if (!settled) fail(`${name} exited (${exitDescription(code, exitSignal)}) before printing its URL${tail()}`)
    })
  })

export interface CommandOutcome {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly error?: Error
}

/** Runs a command with its output on the terminal; resolves when it exits (or could not start). */
export const runToExit = (child: ChildProcess): Promise<CommandOutcome> =>
  new Promise((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: null, error }))
    child.once("exit", (code, signal) => resolve({ code, signal }))
  })

export const describeExit = (outcome: CommandOutcome): string =>
  outcome.error === undefined ? exitDescription(outcome.code, outcome.signal) : outcome.error.message
