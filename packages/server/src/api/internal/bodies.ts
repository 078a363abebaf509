import { Readable } from "node:stream"
import { traceFileName } from "@proctor/core"
import { strToU8, Zip, ZipDeflate } from "fflate"
import type { RolloutCursor, StoredRow } from "../../jobs/RolloutStore.js"

export const PAGE_SIZE = 1000

/**
 * Rows per chunk written to the socket: ~30 KB. A whole page joined at once (~300 KB) would be allocated in V8's
 * large-object space, which only a full GC frees, and the server's memory would climb with the row count.
 */
const CHUNK_ROWS = 100

function* chunksOf(page: ReadonlyArray<StoredRow>, render: (rows: ReadonlyArray<StoredRow>) => string) {
  for (let i = 0; i < page.length; i += CHUNK_ROWS) yield render(page.slice(i, i + CHUNK_ROWS))
}

/** Keyset pages of stored rows: memory stays at one page however many rows a job has. */
export async function* pagesOf(
  fetchPage: (after: RolloutCursor | null, limit: number) => Promise<ReadonlyArray<StoredRow>>,
): AsyncGenerator<ReadonlyArray<StoredRow>> {
  let after: RolloutCursor | null = null
  for (;;) {
    const page = await fetchPage(after, PAGE_SIZE)
    if (page.length > 0) yield page
    if (page.length < PAGE_SIZE) return
    after = page[page.length - 1]!
  }
}

/** One stored row per line, as the rows were committed (NDJSON). */
export const jsonlBody = (pages: AsyncIterable<ReadonlyArray<StoredRow>>): Readable =>
  Readable.from(
    (async function* () {
      for await (const page of pages) yield* chunksOf(page, (rows) => rows.map((row) => `${row.json}\n`).join(""))
    })(),
  )

/** `{...head, "results": [rows]}` written as it is read, so the JSON answer is flat in memory too. */
export const jsonResultsBody = (
  head: Record<string, unknown>,
  pages: AsyncIterable<ReadonlyArray<StoredRow>>,
): Readable =>
  Readable.from(
    (async function* () {
      const prefix = JSON.stringify(head)
      yield `${prefix.slice(0, -1)}${prefix.length > 2 ? "," : ""}"results":[`
      let first = true
      for await (const page of pages) {
        for (const text of chunksOf(page, (rows) => rows.map((row) => row.json).join(","))) {
          yield first ? text : `,${text}`
          first = false
        }
      }
      yield "]}"
    })(),
  )

/**
 * A zip of `seed_{seed}_trace.json` files (synth-ai's names; the attempt is added when a job has several),
 * deflated and emitted page by page.
 */
export const tracesZipBody = (pages: AsyncIterable<ReadonlyArray<StoredRow>>, attempts: number): Readable =>
  Readable.from(
    (async function* () {
      let chunks: Array<Uint8Array> = []
      let failure: Error | null = null
      const zip = new Zip((error, data) => {
        if (error) failure = error
        else chunks.push(data)
      })
      const flush = () => {
        if (failure !== null) throw failure
        const out = Buffer.concat(chunks)
        chunks = []
        return out
      }
      for await (const page of pages) {
        for (const row of page) {
          const file = new ZipDeflate(traceFileName(row.seed, row.attempt, attempts), { level: 6 })
          zip.add(file)
          file.push(strToU8(row.json), true)
        }
        const out = flush()
        if (out.length > 0) yield out
      }
      zip.end()
      const out = flush()
      if (out.length > 0) yield out
    })(),
  )
