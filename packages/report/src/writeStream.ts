import { createWriteStream } from "node:fs"
import { mkdir, rm } from "node:fs/promises"
import { dirname } from "node:path"
import { Effect, Exit, Stream } from "effect"
import { ReportWriteError } from "./ReportWriteError.js"
import { messageOf } from "./writeChunks.js"

const BATCH_BYTES = 64 * 1024

type Chunk = string | Uint8Array

const bytesOf = (chunk: Chunk): Uint8Array => (typeof chunk === "string" ? Buffer.from(chunk) : chunk)

/** Resolves once `out` can take more, or will never take more (closed, failed): a closed pipe must not hang us. */
const writable = (out: NodeJS.WritableStream & { readonly destroyed?: boolean }) =>
  new Promise<void>((resolve) => {
    const done = () => {
      out.off("drain", done)
      out.off("close", done)
      out.off("error", done)
      resolve()
    }
    out.once("drain", done)
    out.once("close", done)
    out.once("error", done)
  })

/**
 * Writes a stream's chunks in order to `out` (stdout, a file), in 64 KiB batches and with its backpressure.
 * Output to a stream already closed (a reader gone away: `… | head`) is dropped.
 */
export const writeToStream = <E>(
  chunks: Stream.Stream<Chunk, E>,
  out: NodeJS.WritableStream & { readonly destroyed?: boolean },
): Effect.Effect<void, E> => {
  let batch: Array<Uint8Array> = []
  let size = 0
  const flush = Effect.promise(async () => {
    if (size === 0) return
    const data = Buffer.concat(batch, size)
    batch = []
    size = 0
    if (out.destroyed === true) return
    if (!out.write(data)) await writable(out)
  })
  return Stream.runForEachChunk(chunks, (chunk) => {
    for (const piece of chunk) {
      const bytes = bytesOf(piece)
      batch.push(bytes)
      size += bytes.length
    }
    return size >= BATCH_BYTES ? flush : Effect.void
  }).pipe(Effect.zipRight(flush))
}

/** Writes a stream's chunks to a file, creating its directory: the file is whole when this succeeds, else removed. */
export const writeStreamToFile = <E>(
  path: string,
  chunks: Stream.Stream<Chunk, E>,
): Effect.Effect<void, E | ReportWriteError> => {
  const fail = (cause: unknown) => new ReportWriteError({ path, message: messageOf(cause) })
  return Effect.acquireUseRelease(
    Effect.tryPromise({
      try: async () => {
        await mkdir(dirname(path), { recursive: true })
        const file = createWriteStream(path)
        const state = { error: null as Error | null }
        file.on("error", (error) => {
          state.error = error
        })
        await new Promise<void>((resolve, reject) => {
          file.once("open", () => resolve())
          file.once("error", reject)
        })
        return { file, state }
      },
      catch: fail,
    }),
    ({ file, state }) =>
      writeToStream(chunks, file).pipe(
        Effect.zipRight(
          Effect.tryPromise({
            try: () =>
              new Promise<void>((resolve, reject) => {
                if (state.error !== null) return reject(state.error)
                file.end((error?: Error | null) => (error ? reject(error) : resolve()))
              }),
            catch: fail,
          }),
        ),
      ),
    // A file cut short by a failure is removed: half an export must not pass for a whole one.
    ({ file }, exit) =>
      Effect.promise(async () => {
        if (!file.destroyed) file.destroy()
        if (Exit.isFailure(exit)) await rm(path, { force: true })
      }),
  )
}
