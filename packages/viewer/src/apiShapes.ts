/**
 * The shapes of the viewer's data API (shared-notes VIEWER_API.md section 3): what `proctor view`,
 * `proctor eval --view` and the job server answer, what `proctor report --html` embeds, and what the page reads.
 */
import type {
  AgentTrajectoryEvent,
  EvalResult,
  ModelCall,
  PublicEvalRunConfig,
  RolloutStep,
  RunProgress,
  RunSummary,
} from "@proctor/core"
import type { GridComparison } from "@proctor/report"

export type ViewerMode = "local" | "server" | "embedded"

/** How many rows the table asks for first: few, so they are on screen at once; the rest follow in later pages. */
export const FIRST_ROWS_PAGE = 500

/** The data API's path of the run heads. */
export const RUNS_PATH = "/runs"

/** The data API's path of run `run`'s rows from `from` (`limit` asks for fewer than the server's page). */
export const rowsPath = (run: number, from: number, limit?: number): string =>
  `/runs/${run}/rows?from=${from}${limit === undefined ? "" : `&limit=${limit}`}`

/** The data API's path of the grid, where the viewer shows a grid run. */
export const GRID_PATH = "/grid"

/** Written into the page as `<script id="proctor-config" type="application/json">`. */
export interface ViewerConfig {
  readonly mode: ViewerMode
  /** Where the data API is, relative to the page (`api`), or absolute (`/api/eval/jobs/ID/view`). */
  readonly base: string
  /** The runs are a grid run's variants: the data API answers `GRID_PATH`, and the page opens on the grid. */
  readonly grid?: boolean
}

export interface RunHead {
  readonly index: number
  readonly name: string
  readonly run_id: string
  readonly live: boolean
  readonly config: PublicEvalRunConfig | null
  readonly summary: RunSummary | null
  readonly progress: RunProgress | null
  /** When the run was started (its run directory's `created_at`); absent where the holder does not know. */
  readonly started_at?: string | null
}

/** One rollout as the table shows it: a few numbers, never its transcript. */
export interface RolloutRow {
  readonly seed: number
  readonly attempt: number
  readonly task_id: string | number | null
  readonly status: "ok" | "error"
  readonly score: number | null
  readonly passed: boolean | null
  readonly error_kind: string | null
  /** At most `ROW_ERROR_CHARS` characters. */
  readonly error: string | null
  readonly latency_ms: number | null
  readonly tokens: number | null
  readonly cost_usd: number | null
  readonly calls: number
  readonly turns: number | null
  readonly retries: number
  /** Agent rollouts: why the agent stopped, and its conversation's length in messages. */
  readonly stop_reason: string | null
  readonly messages: number | null
}

export interface RowsPage {
  readonly rows: ReadonlyArray<RolloutRow>
  readonly next: number
  readonly complete: boolean
}

/** A failed try before the final one (section 4); written by the Runner into `EvalResult.retry_log`. */
export interface RetryEntry {
  readonly kind: string
  readonly error: string
  readonly delay_ms: number
  readonly at: string
}

/** One rollout in full: its result and every model call it made. */
export interface RolloutDetail {
  readonly result: EvalResult
  readonly calls: ReadonlyArray<ModelCall>
  /** A report file's: the rollout's timeline, where it has one (a data API serves it at `stepsPath`). */
  readonly steps?: ReadonlyArray<RolloutStep>
}

/** A rollout's timeline (`steps.jsonl`): every step of every try, in the order written; empty for a one-shot rollout. */
export interface RolloutSteps {
  readonly steps: ReadonlyArray<RolloutStep>
}

/** The data API's path of a rollout's steps. */
export const stepsPath = (run: number, seed: number, attempt: number): string =>
  `/runs/${run}/rollouts/${seed}/${attempt}/steps`

/** A command-line agent's own output for a rollout (`agent_trajectory.jsonl`), every try's; empty for other rollouts. */
export interface RolloutAgentEvents {
  readonly events: ReadonlyArray<AgentTrajectoryEvent>
}

/** The data API's path of a rollout's agent events. */
export const agentEventsPath = (run: number, seed: number, attempt: number): string =>
  `/runs/${run}/rollouts/${seed}/${attempt}/agent_trajectory`

/**
 * What the page reads of `proctor compare --json` (section 2): the compare view needs no more, so a
 * Comparison with more fields is one of these.
 */
export interface ComparisonView {
  readonly pairs: number
  readonly mean_a: number | null
  readonly mean_b: number | null
  readonly diff: number | null
  readonly ci95: readonly [number, number] | null
  readonly p_value: number | null
  readonly test?: string
  /** In words: "b_better", "b_worse", "no_significant_difference", "too_few_pairs". */
  readonly verdict?: string
  readonly correlation?: number | null
  /** The smallest difference these pairs detect at 80% power. */
  readonly mde80?: number | null
  /** Mean per rollout in A and B (and B − A) of tokens, cost and latency. */
  readonly deltas?: Readonly<
    Record<
      "tokens" | "cost_usd" | "latency_ms",
      { readonly a: number | null; readonly b: number | null; readonly diff: number | null }
    >
  >
  readonly flips: { readonly a_only: ReadonlyArray<number>; readonly b_only: ReadonlyArray<number> }
  readonly excluded?: { readonly errored: number; readonly unmatched: number }
  readonly per_seed?: ReadonlyArray<{ readonly seed: number; readonly a: number | null; readonly b: number | null }>
}

/** A grid run's variant as the grid page names it: its run in the viewer, and what it sets. */
export interface GridVariantView {
  readonly name: string
  /** The variant's run index in this viewer: its rollouts open there. */
  readonly run: number
  readonly model?: string
  readonly prompt?: string
  readonly system?: string
}

/** One task in one variant: a cell of the grid's task × variant matrix. */
export interface GridCell {
  /** The task's mean score over the variant's scored attempts, as the comparison counts it; null when none scored. */
  readonly score: number | null
  /** `score` ≥ the grid's pass threshold, as the comparison's flips pass; null when unscored. */
  readonly passed: boolean | null
  readonly attempts: number
  /** Attempts that errored or left no score. */
  readonly errored: number
  /** The rollout the cell opens: the task's first attempt in this variant. */
  readonly attempt: number
  /** That rollout's answer (cut to `GRID_ANSWER_CHARS`, with "…"); null when it errored. */
  readonly answer: string | null
  readonly error_kind: string | null
}

export interface GridTaskRow {
  readonly seed: number
  readonly task_id: string | number | null
  /** In the order of `GridView.variants`; null where that variant has no rollout of the task (yet). */
  readonly cells: ReadonlyArray<GridCell | null>
}

/** A grid run as the grid page shows it (`GRID_PATH`, or a report file's `grid`). */
export interface GridView {
  /** The grid run's directory name. */
  readonly name: string
  /** Best first: the order of `comparison.variants`, whose labels are the variants' names. */
  readonly variants: ReadonlyArray<GridVariantView>
  /** What `proctor compare GRID --json` prints: the ranking, every pair Holm-corrected, their flips. */
  readonly comparison: GridComparison
  /** Every task some variant ran, in seed order. */
  readonly tasks: ReadonlyArray<GridTaskRow>
}

/**
 * The data of a report file (mode `embedded`): `<script id="proctor-data" type="application/json">` holds all
 * but `rollouts`; each rollout is a tag of its own, `id="proctor-rollout:<run>/<seed>/<attempt>"`, parsed only
 * when it is opened.
 */
export interface EmbeddedData {
  readonly runs: ReadonlyArray<RunHead>
  readonly rows: ReadonlyArray<ReadonlyArray<RolloutRow>>
  /** Keyed `"<run>/<seed>/<attempt>"`; above the size budget only some (failures first). */
  readonly rollouts: Readonly<Record<string, RolloutDetail>>
  /** Rollouts whose transcript was left out to stay within the budget. */
  readonly omitted: number
  /** With two runs: how they compare (the compare view). */
  readonly comparison?: ComparisonView
  /** A grid run's report: the runs are its variants, and this is its grid page. */
  readonly grid?: GridView
}

/** What the page parses of a report file as it opens. */
export type EmbeddedHead = Omit<EmbeddedData, "rollouts">

export const rolloutKey = (run: number, seed: number, attempt: number): string => `${run}/${seed}/${attempt}`

/** The element id of an embedded rollout's tag; the page looks one up only when it is opened. */
export const rolloutTagId = (key: string): string => `proctor-rollout:${key}`
