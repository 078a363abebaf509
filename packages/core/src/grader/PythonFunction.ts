import { resolve } from "node:path"
import { Effect } from "effect"
import { GraderError } from "./Grader.js"
import { PythonWorker } from "./internal/PythonWorker.js"

/** An idle interpreter ends after this long; the next call starts another. */
const IDLE_MS = 10_000

export interface PythonFunctionOptions {
  /** The grader it serves, named in its errors. */
  readonly grader: string
  /** The interpreter (default `python3`). */
  readonly python?: string | undefined
  /** Where the function is: exactly one of a file (relative to the working directory), a module on the path, or source text. */
  readonly file?: string | undefined
  readonly module?: string | undefined
  readonly source?: string | undefined
  readonly function: string
  readonly kwargs?: Readonly<Record<string, unknown>> | undefined
}

/** A Python function in an interpreter of its own: loaded once (`load`), then called with JSON arguments. */
export interface PythonFunction {
  /** Starts the interpreter and finds the function; fails naming the file when it cannot. */
  readonly load: Effect.Effect<void, GraderError>
  /** Calls it with `args`: what it returned, or a `GraderError` with the line it raised. */
  readonly call: (args: ReadonlyArray<unknown>) => Effect.Effect<unknown, GraderError>
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0]!

/**
 * A Python function for a grader (proctor's `python` grader, an imported Python assertion): its calls, from
 * concurrent rollouts, pipelined to one long-lived interpreter, which ends when idle so that a library user's process
 * is not held open by it.
 */
export const pythonFunction = (options: PythonFunctionOptions): PythonFunction => {
  const worker = new PythonWorker({
    python: options.python ?? "python3",
    setup: {
      ...(options.file === undefined ? {} : { file: resolve(options.file) }),
      ...(options.module === undefined ? {} : { module: options.module }),
      ...(options.source === undefined ? {} : { source: options.source }),
      function: options.function,
      kwargs: options.kwargs ?? {},
    },
    idleMs: IDLE_MS,
  })
  const where = options.file ?? options.module ?? "source"
  return {
    load: Effect.tryPromise({
      try: () => worker.start(),
      catch: (error) =>
        new GraderError({
          reason: "Unloadable",
          grader: options.grader,
          message: `${where}: ${firstLine(error)}`,
          cause: error,
        }),
    }),
    call: (args) =>
      Effect.tryPromise({
        try: () => worker.call(args),
        catch: (error) =>
          new GraderError({
            reason: "Threw",
            grader: options.grader,
            message: `raised ${firstLine(error)}`,
            cause: error,
          }),
      }),
  }
}
