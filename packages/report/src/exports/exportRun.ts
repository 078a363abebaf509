import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { type EvalResult, type RunReader, StoreError, TRACES_DIR, traceFileName } from "@proctor/core"
import { Effect, Option, Stream } from "effect"
import { formatMarkdown } from "../markdown.js"
import { resultRow } from "../outputJson.js"
import { runScoring, runSummaryOf } from "../runSummary.js"
import { csvHeader, csvRow } from "./csv.js"
import { JunitCounts, junitClose, junitOpen, junitTestcase } from "./junit.js"
import { sftExampleOf } from "./sft.js"
import { markdownSummaryTable } from "./summaryMarkdown.js"
import { type ZipFile, zipStream } from "./tracesZip.js"

export const EXPORT_FORMATS = ["csv", "jsonl", "junit", "markdown", "sft", "traces-zip"] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export interface ExportOptions {
  /** `sft`: only rollouts scoring at least this (default: the run's pass threshold). */
  readonly minScore?: number | undefined
}

/** What an export wrote and what it left out, by reason, for the line the CLI prints on stderr. */
export class ExportTally {
  rollouts = 0
  written = 0
  readonly skipped = new Map<string, number>()

  skip(reason: string): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1)
  }
}

export interface RunExport {
  readonly chunks: Stream.Stream<string | Uint8Array, StoreError>
  readonly tally: ExportTally
}

/** Counts the results as they pass, a chunk at a time (no effect per result: a run has 100,000 of them). */
const counted = (tally: ExportTally, results: Stream.Stream<EvalResult, StoreError>) =>
  Stream.mapChunks(results, (chunk) => {
    tally.rollouts += chunk.length
    return chunk
  })

const junit = (reader: RunReader, tally: ExportTally): Stream.Stream<string, StoreError> => {
  const { passThreshold } = runScoring(reader)
  const config = reader.manifest?.config
  // Two passes over the journal: a suite declares its counts before its test cases.
  const counts = new JunitCounts()
  const countAll = Stream.runForEachChunk(reader.results(), (chunk) =>
    Effect.sync(() => {
      for (const result of chunk) counts.add(result, passThreshold)
    }),
  )
  return Stream.unwrap(
    Effect.map(countAll, () => {
      const suite = {
        name: reader.manifest?.run_id ?? reader.dir,
        classname: `proctor.${config?.app_id ?? config?.env_name ?? "eval"}`,
        timestamp: reader.manifest?.created_at ?? null,
        counts,
      }
      const cases = counted(tally, reader.results()).pipe(
        Stream.map((result) => {
          tally.written++
          return junitTestcase(result, suite, passThreshold)
        }),
      )
      return Stream.make(junitOpen(suite)).pipe(Stream.concat(cases), Stream.concat(Stream.make(junitClose())))
    }),
  )
}

const sft = (reader: RunReader, tally: ExportTally, minScore: number): Stream.Stream<string, StoreError> =>
  counted(tally, reader.results()).pipe(
    Stream.filter((result) => {
      const kept = result.status === "ok" && result.score !== null && result.score >= minScore
      if (!kept) tally.skip(`errored or scored below ${minScore}`)
      return kept
    }),
    Stream.mapEffect((result) => reader.rollout(result.seed, result.attempt)),
    Stream.filterMap((record) => {
      const conversion = Option.isSome(record) ? sftExampleOf(record.value) : null
      if (conversion === null || conversion._tag === "Skipped") {
        tally.skip(conversion?.reason ?? "its rollout could not be read back")
        return Option.none()
      }
      tally.written++
      return Option.some(`${JSON.stringify(conversion.example)}\n`)
    }),
  )

const traceFiles = (reader: RunReader, tally: ExportTally): Stream.Stream<ZipFile, StoreError> => {
  const { attempts } = runScoring(reader)
  const read = (result: EvalResult) => {
    const name = traceFileName(result.seed, result.attempt, attempts)
    if (result.trace !== undefined && result.trace !== null) {
      return Effect.succeed(Option.some({ name, data: Buffer.from(JSON.stringify(result.trace)) }))
    }
    const path = join(reader.dir, TRACES_DIR, name)
    return Effect.tryPromise({
      try: () => readFile(path),
      catch: (cause) => cause as NodeJS.ErrnoException,
    }).pipe(
      Effect.map((data) => Option.some({ name, data: new Uint8Array(data) })),
      Effect.catchAll((error) =>
        error.code === "ENOENT"
          ? Effect.succeed(Option.none())
          : Effect.fail(new StoreError({ reason: "Io", message: `cannot read ${path}: ${error.message}` })),
      ),
    )
  }
  return counted(tally, reader.results()).pipe(
    Stream.mapEffect(read),
    Stream.filterMap((file) => {
      if (Option.isSome(file)) tally.written++
      else tally.skip("no trace was recorded")
      return file
    }),
  )
}

/**
 * A run directory in one of the export formats, as a stream of chunks to write in order (text, or the zip's
 * bytes), read from the journal a rollout at a time: a 100,000-rollout run never sits in memory.
 */
export const exportRun = (reader: RunReader, format: ExportFormat, options: ExportOptions = {}): RunExport => {
  const tally = new ExportTally()
  const { passThreshold, attempts } = runScoring(reader)
  const lines = (line: (result: EvalResult) => string) =>
    counted(tally, reader.results()).pipe(
      Stream.map((result) => {
        tally.written++
        return line(result)
      }),
    )
  switch (format) {
    case "jsonl":
      return { tally, chunks: lines((result) => `${JSON.stringify(resultRow(result))}\n`) }
    case "csv":
      return {
        tally,
        chunks: Stream.concat(
          Stream.make(csvHeader()),
          lines((result) => csvRow(result, passThreshold)),
        ),
      }
    case "junit":
      return { tally, chunks: junit(reader, tally) }
    case "markdown": {
      const table = markdownSummaryTable(attempts)
      const document = Effect.gen(function* () {
        const summary = yield* runSummaryOf(reader)
        yield* Stream.runForEachChunk(counted(tally, reader.results()), (chunk) =>
          Effect.sync(() => {
            for (const result of chunk) table.add(result)
            tally.written += chunk.length
          }),
        )
        return formatMarkdown(summary, table)
      })
      return { tally, chunks: Stream.fromEffect(document) }
    }
    case "sft":
      return { tally, chunks: sft(reader, tally, options.minScore ?? passThreshold) }
    case "traces-zip":
      return { tally, chunks: zipStream(traceFiles(reader, tally)) }
  }
}
