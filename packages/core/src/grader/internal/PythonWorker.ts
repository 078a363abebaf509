import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { PYTHON_DRIVER } from "./pythonDriver.js"

export interface PythonWorkerOptions {
  /** The interpreter (`python3`). */
  readonly python: string
  /** What the driver loads: `{ file | module | source, function, kwargs }`. */
  readonly setup: Readonly<Record<string, unknown>>
  /** Without a request for this long the process ends (its next request starts another). */
  readonly idleMs: number
}

interface Pending {
  readonly resolve: (value: unknown) => void
  readonly reject: (error: Error) => void
}

const STDERR_TAIL_CHARS = 2000

/**
 * One Python grader's interpreter, answering calls over JSON lines (see `PYTHON_DRIVER`): started on first use, the
 * calls of concurrent rollouts pipelined to it, and ended after `idleMs` without one, so that a library user's
 * process is not held open by it. A process that dies fails its calls with what it wrote to stderr last.
 */
export class PythonWorker {
  private child: ChildProcessWithoutNullStreams | undefined
  private started: Promise<void> | undefined
  private readonly pending = new Map<number, Pending>()
  private nextId = 0
  private idle: NodeJS.Timeout | undefined

  constructor(private readonly options: PythonWorkerOptions) {}

  /** Calls the function with `args` (JSON values); resolves to what it returned. */
  call(args: ReadonlyArray<unknown>): Promise<unknown> {
    return this.start().then(
      () =>
        new Promise((resolve, reject) => {
          const id = this.nextId++
          this.pending.set(id, { resolve, reject })
          this.keepAlive()
          this.child?.stdin.write(`${JSON.stringify({ id, args })}\n`)
        }),
    )
  }

  /** Starts the interpreter and loads the function; rejects with why it could not. */
  start(): Promise<void> {
    this.started ??= new Promise<void>((resolve, reject) => {
      const child = spawn(this.options.python, ["-c", PYTHON_DRIVER], { stdio: ["pipe", "pipe", "pipe"] })
      this.child = child
      let stderrTail = ""
      let ready = false
      // A process stopped while idle may end after the next one started: only the current one's end counts.
      const current = () => this.child === child
      child.stderr.setEncoding("utf8")
      child.stderr.on("data", (chunk: string) => {
        stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS)
      })
      child.on("error", (error) => {
        if (current()) this.ended()
        reject(new Error(`could not start ${this.options.python}: ${error.message}`))
      })
      child.on("close", (code, signal) => {
        const why = stderrTail.trim().split("\n").at(-1) ?? ""
        const error = new Error(`${this.options.python} ended (${signal ?? `exit ${code}`})${why ? `: ${why}` : ""}`)
        if (current()) this.ended(error)
        if (!ready) reject(error)
      })
      createInterface({ input: child.stdout }).on("line", (line) => {
        const message = JSON.parse(line) as { ready?: boolean; id?: number; value?: unknown; error?: string }
        if (!ready) {
          if (message.ready === true) {
            ready = true
            this.keepAlive()
            resolve()
          } else reject(new Error(message.error ?? line))
          return
        }
        const waiting = message.id === undefined ? undefined : this.pending.get(message.id)
        if (waiting === undefined) return
        this.pending.delete(message.id!)
        if (message.error !== undefined) waiting.reject(new Error(message.error))
        else waiting.resolve(message.value)
        this.keepAlive()
      })
      child.stdin.on("error", () => {})
      child.stdin.write(`${JSON.stringify(this.options.setup)}\n`)
    })
    return this.started
  }

  /** Ends the interpreter (it finishes at end of input); the next call starts another. Only called while idle. */
  stop(): void {
    const child = this.child
    this.ended()
    child?.stdin.end()
  }

  /**
   * With a call in flight the interpreter holds this process open; with none it does not (a finished run exits at
   * once), and it ends after `idleMs`.
   */
  private keepAlive(): void {
    if (this.idle !== undefined) clearTimeout(this.idle)
    this.idle = undefined
    const child = this.child
    const busy = this.pending.size > 0
    if (child !== undefined) {
      // With `stdio: "pipe"` each stream is a net.Socket, which can be unreferenced like the process.
      const handles = [child, child.stdin, child.stdout, child.stderr] as ReadonlyArray<{ ref(): void; unref(): void }>
      for (const handle of handles) {
        if (busy) handle.ref()
        else handle.unref()
      }
    }
    if (busy) return
    this.idle = setTimeout(() => this.stop(), this.options.idleMs)
    this.idle.unref()
  }

  private ended(error?: Error): void {
    if (this.idle !== undefined) clearTimeout(this.idle)
    this.idle = undefined
    this.child = undefined
    this.started = undefined
    for (const waiting of this.pending.values()) waiting.reject(error ?? new Error(`${this.options.python} ended`))
    this.pending.clear()
  }
}
