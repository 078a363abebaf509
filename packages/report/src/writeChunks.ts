import { createWriteStream } from "node:fs"
import { mkdir } from "node:fs/promises"
import { dirname } from "node:path"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { Effect } from "effect"
import { ReportWriteError } from "./ReportWriteError.js"

export const messageOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const BATCH_CHARS = 64 * 1024

/** Row-sized chunks cost a stream write each; 64 KiB batches make that overhead vanish. */
async function* batched(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let batch = ""
  for await (const chunk of chunks) {
    batch += chunk
    if (batch.length >= BATCH_CHARS) {
      yield batch
      batch = ""
    }
  }
  if (batch !== "") yield batch
}

/**
 * Streams text to a file, creating its directory, with the stream's backpressure; interrupting the effect
 * aborts the write.
 */
export const writeChunks = (path: string, chunks: () => AsyncIterable<string>): Effect.Effect<void, ReportWriteError> =>
  Effect.tryPromise({
    try: async (signal) => {
      await mkdir(dirname(path), { recursive: true })
      await pipeline(Readable.from(batched(chunks())), createWriteStream(path, { highWaterMark: 1024 * 1024 }), {
        signal,
      })
    },
    catch: (cause) => new ReportWriteError({ path, message: messageOf(cause) }),
  })
