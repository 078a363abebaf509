import type { EvalResult } from "@proctor/core"

/**
 * A job's aggregate (synth-ai's status numbers) as plain arithmetic over its rows: counted once from the database
 * when a job (re)starts, then moved by each row stored, so status polls never re-aggregate. No I/O here.
 */
/** Aggregates over a job's stored results, as synth-ai's status endpoint reports them. */
export interface ResultStats {
  readonly completed: number
  readonly ok: number
  readonly meanScore: number | null
  readonly totalTokens: number | null
  readonly totalCostUsd: number | null
}

export const emptyStats: ResultStats = { completed: 0, ok: 0, meanScore: null, totalTokens: null, totalCostUsd: null }

/**
 * The sums and counts behind `ResultStats`, so a running job's stats can be kept up to date as rows are stored
 * instead of re-aggregated per request. Counts mirror SQL: AVG and SUM skip NULLs, and are NULL over no values.
 */
export interface ResultTally {
  completed: number
  ok: number
  scoreSum: number
  scored: number
  tokensSum: number
  tokensCount: number
  costSum: number
  costCount: number
}

/** What a stored row contributes to a tally (its columns as stored). */
export interface TallyRow {
  readonly status: string
  readonly score: number | null
  readonly tokens: number | null
  readonly costUsd: number | null
}

export const emptyTally = (): ResultTally => ({
  completed: 0,
  ok: 0,
  scoreSum: 0,
  scored: 0,
  tokensSum: 0,
  tokensCount: 0,
  costSum: 0,
  costCount: 0,
})

/** Adds (sign 1) or removes (sign -1, a row being overwritten) one row's contribution. */
export const tallyRow = (tally: ResultTally, row: TallyRow, sign: 1 | -1): void => {
  tally.completed += sign
  if (row.status === "ok") {
    tally.ok += sign
    if (row.score !== null) {
      tally.scoreSum += sign * row.score
      tally.scored += sign
    }
  }
  if (row.tokens !== null) {
    tally.tokensSum += sign * row.tokens
    tally.tokensCount += sign
  }
  if (row.costUsd !== null) {
    tally.costSum += sign * row.costUsd
    tally.costCount += sign
  }
}

export const statsOfTally = (tally: ResultTally): ResultStats => ({
  completed: tally.completed,
  ok: tally.ok,
  meanScore: tally.scored > 0 ? tally.scoreSum / tally.scored : null,
  totalTokens: tally.tokensCount > 0 ? tally.tokensSum : null,
  totalCostUsd: tally.costCount > 0 ? tally.costSum : null,
})

/** A number as the results table stores it: non-finite numbers become NULL. */
export const finiteOrNull = (n: number | null | undefined): number | null =>
  typeof n === "number" && Number.isFinite(n) ? n : null

/** A result's contribution as the results table stores its columns (non-finite numbers become NULL). */
export const tallyRowOf = (result: EvalResult): TallyRow => ({
  status: result.status,
  score: finiteOrNull(result.score),
  tokens: finiteOrNull(result.tokens),
  costUsd: finiteOrNull(result.cost_usd),
})
