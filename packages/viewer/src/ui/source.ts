import type { LiveRunView } from "@proctor/core"
import {
  agentEventsPath,
  type ComparisonView,
  type EmbeddedHead,
  GRID_PATH,
  type GridView,
  type RolloutAgentEvents,
  type RolloutDetail,
  type RolloutSteps,
  type RowsPage,
  RUNS_PATH,
  type RunHead,
  rolloutKey,
  rowsPath,
  stepsPath,
  type ViewerMode,
} from "../apiShapes.js"
import { followEvents } from "./sse.js"

/** Where the page's data comes from: a server's data API (local or job server), or the data embedded in the page. */
export interface ViewerSource {
  readonly mode: ViewerMode
  readonly runs: () => Promise<ReadonlyArray<RunHead>>
  /** Rows from `from`; `limit` asks for fewer than the server's page (the first page, to show rows at once). */
  readonly rows: (run: number, from: number, limit?: number) => Promise<RowsPage>
  /** Null when the rollout is unknown, or (embedded) its transcript was left out of the file. */
  readonly rollout: (run: number, seed: number, attempt: number) => Promise<RolloutDetail | null>
  /** The rollout's timeline so far (empty for a one-shot rollout): it grows while the rollout runs. */
  readonly steps: (run: number, seed: number, attempt: number) => Promise<RolloutSteps["steps"]>
  /** A command-line agent's own output for the rollout (empty for other rollouts, and in report files). */
  readonly agentEvents: (run: number, seed: number, attempt: number) => Promise<RolloutAgentEvents["events"]>
  /** Null for a run that is not live. */
  readonly live: (run: number) => Promise<LiveRunView | null>
  readonly compare: (a: number, b: number) => Promise<ComparisonView | null>
  /** A grid run's grid (its runs are the variants); null where the runs are no grid. */
  readonly grid: (() => Promise<GridView>) | null
  /** Calls `onUpdate(run)` whenever run `run` has new rows or live state; returns how to stop. */
  readonly subscribe: (onUpdate: (run: number) => void) => () => void
  /** Embedded reports: how many rollouts' transcripts were left out of the file. */
  readonly omitted: number
}

/** The job server said the key is not (or no longer) valid: the page asks to sign in again. */
export class SignInRequired extends Error {}

export class RequestFailed extends Error {}

/** The data API does not know this (a job of another key is one: the job server answers 404). */
export class NotFound extends RequestFailed {}

/**
 * A data API over HTTP: `proctor view`, `eval --view`, or a job on the job server (with its Bearer key); `grid` when
 * the page was told it serves a grid run.
 */
export const httpSource = (mode: ViewerMode, base: string, apiKey: string | null, grid = false): ViewerSource => {
  const headers: Record<string, string> = apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }
  const root = base.replace(/\/+$/, "")
  const get = async <A>(path: string, absentIf404 = false): Promise<A | null> => {
    const response = await fetch(`${root}${path}`, { headers: { accept: "application/json", ...headers } })
    if (response.status === 401) throw new SignInRequired("the API key was refused")
    if (response.status === 404) {
      if (absentIf404) return null
      throw new NotFound(`${path}: not found`)
    }
    if (!response.ok) throw new RequestFailed(`${path}: HTTP ${response.status}`)
    return (await response.json()) as A
  }
  const need = async <A>(path: string): Promise<A> => (await get<A>(path)) as A
  return {
    mode,
    runs: async () => (await need<{ runs: ReadonlyArray<RunHead> }>(RUNS_PATH)).runs,
    rows: (run, from, limit) => need<RowsPage>(rowsPath(run, from, limit)),
    rollout: (run, seed, attempt) => get<RolloutDetail>(`/runs/${run}/rollouts/${seed}/${attempt}`, true),
    steps: async (run, seed, attempt) => (await get<RolloutSteps>(stepsPath(run, seed, attempt), true))?.steps ?? [],
    agentEvents: async (run, seed, attempt) =>
      (await get<RolloutAgentEvents>(agentEventsPath(run, seed, attempt), true))?.events ?? [],
    live: (run) => get<LiveRunView>(`/runs/${run}/live`, true),
    compare: (a, b) => get<ComparisonView>(`/compare?a=${a}&b=${b}`, true),
    grid: grid ? () => need<GridView>(GRID_PATH) : null,
    subscribe: (onUpdate) =>
      followEvents(`${root}/events`, headers, (event) => {
        if (event.event !== "update") return
        try {
          const run = (JSON.parse(event.data) as { run?: unknown }).run
          if (typeof run === "number") onUpdate(run)
        } catch {
          // An update we cannot read is skipped; the next one refreshes the same state.
        }
      }),
    omitted: 0,
  }
}

/** A report file: everything is in the page already; a transcript is parsed when it is opened (`transcript(key)`). */
export const embeddedSource = (
  data: EmbeddedHead,
  transcript: (key: string) => RolloutDetail | null,
): ViewerSource => ({
  mode: "embedded",
  runs: async () => data.runs,
  rows: async (run) => ({ rows: data.rows[run] ?? [], next: (data.rows[run] ?? []).length, complete: true }),
  rollout: async (run, seed, attempt) => transcript(rolloutKey(run, seed, attempt)),
  steps: async (run, seed, attempt) => transcript(rolloutKey(run, seed, attempt))?.steps ?? [],
  agentEvents: async () => [],
  live: async () => null,
  compare: async () => data.comparison ?? null,
  grid: data.grid === undefined ? null : async () => data.grid!,
  subscribe: () => () => {},
  omitted: data.omitted,
})
