import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { type EvalResult, traceFileName } from "@proctor/core"
import { Chunk, Effect, Stream } from "effect"
import { ReportWriteError } from "./ReportWriteError.js"
import type { ResultSource } from "./source.js"
import { messageOf } from "./writeChunks.js"

const WRITE_CONCURRENCY = 16

/**
 * Writes each result's trace (as `json.dumps(trace, indent=2)` would) into `dir`, creating it, and returns the
 * paths written in the order of the results. Results without a trace are skipped.
 */
export const writeTraces = (
  dir: string,
  results: ResultSource,
  options: { readonly attempts: number },
): Effect.Effect<ReadonlyArray<string>, ReportWriteError> => {
  const fail = (path: string) => (cause: unknown) => new ReportWriteError({ path, message: messageOf(cause) })
  const source: Stream.Stream<EvalResult, ReportWriteError> =
    Symbol.asyncIterator in results ? Stream.fromAsyncIterable(results, fail(dir)) : Stream.fromIterable(results)
  const write = (result: EvalResult) => {
    const path = join(dir, traceFileName(result.seed, result.attempt, options.attempts))
    return Effect.tryPromise({
      try: () => writeFile(path, JSON.stringify(result.trace, null, 2)),
      catch: fail(path),
    }).pipe(Effect.as(path))
  }
  return Effect.tryPromise({ try: () => mkdir(dir, { recursive: true }), catch: fail(dir) }).pipe(
    Effect.zipRight(
      source.pipe(
        Stream.filter((result) => result.trace !== undefined && result.trace !== null),
        Stream.mapEffect(write, { concurrency: WRITE_CONCURRENCY }),
        Stream.runCollect,
      ),
    ),
    Effect.map(Chunk.toReadonlyArray),
  )
}
