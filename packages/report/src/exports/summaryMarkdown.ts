import { appendFile } from "node:fs/promises"
import type { EvalResult, RunSummary } from "@proctor/core"
import { Effect } from "effect"
import { formatMarkdown } from "../markdown.js"
import { ReportWriteError } from "../ReportWriteError.js"
import { COMPACT_ROWS, ResultTable } from "../table.js"
import { messageOf } from "../writeChunks.js"

/**
 * The results table of a run's markdown summary (`formatMarkdown(summary, table)`: a PR comment,
 * `$GITHUB_STEP_SUMMARY`): failures and the first and last rows, since every row of a 100,000-rollout run
 * would not fit a comment.
 */
export const markdownSummaryTable = (attempts: number): ResultTable =>
  new ResultTable({ attempts, rows: COMPACT_ROWS, hideEmptyColumns: true, numbers: "human" })

/** Appends the run's markdown summary to a file, as GitHub Actions' `$GITHUB_STEP_SUMMARY` expects. */
export const appendSummaryMarkdown = (
  path: string,
  summary: RunSummary,
  results: Iterable<EvalResult>,
  attempts: number,
): Effect.Effect<void, ReportWriteError> =>
  Effect.tryPromise({
    try: () => {
      const table = markdownSummaryTable(attempts)
      for (const result of results) table.add(result)
      return appendFile(path, formatMarkdown(summary, table))
    },
    catch: (cause) => new ReportWriteError({ path, message: messageOf(cause) }),
  })
