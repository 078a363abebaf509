import type { EvalResult } from "@proctor/core"
import { compareResults, comparisonThreshold } from "@proctor/report"
import { Chunk, Effect, Either, Option, ParseResult, Schema, Stream } from "effect"
import type { GridView, RunHead } from "../apiShapes.js"
import { type GridSpec, GridViewBuilder } from "../gridView.js"
import { ViewerError } from "./ViewerError.js"
import type { ViewerRun } from "./ViewerRun.js"

/** The event-stream message telling a viewer page that run `run` has new rows or live state (it then re-fetches). */
export const viewerUpdateMessage = (run: number): string => `event: update\ndata: ${JSON.stringify({ run })}\n\n`

/** Rows per page at most, and by default. */
export const MAX_ROWS_PER_PAGE = 20_000
/** An `update` event per run at most this often: a fast run finishes rollouts far quicker than a page redraws. */
export const UPDATE_EVERY_MS = 250

export type ViewerQuery = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/**
 * The viewer data API over a set of runs (VIEWER_API.md section 3), whoever hosts it: `get` answers a GET of
 * `{base}/{path}` with the JSON to send; `watch` reports which run changed, for the `events` stream.
 */
export interface ViewerApi<E = never> {
  readonly get: (path: string, query: ViewerQuery) => Effect.Effect<unknown, ViewerError | E>
  /** Calls `onUpdate(run)` when run `run` has new rows or live state, at most every `UPDATE_EVERY_MS` per run. */
  readonly watch: (onUpdate: (run: number) => void) => () => void
}

/** An integer query parameter; anything else is refused with `expected WHAT`. */
const integerParameter = (what: string, refine: (n: typeof Schema.Int) => Schema.Schema<number, number>) => {
  const message = { message: () => `expected ${what}` }
  return Schema.compose(Schema.NumberFromString.annotations(message), refine(Schema.Int).annotations(message))
}

const position = (what: string) => integerParameter(what, (n) => n.pipe(Schema.nonNegative()))

const RowsQuery = Schema.Struct({
  from: Schema.optional(position("a row position (an integer ≥ 0)")),
  limit: Schema.optional(
    integerParameter(`an integer from 1 to ${MAX_ROWS_PER_PAGE}`, (n) => n.pipe(Schema.between(1, MAX_ROWS_PER_PAGE))),
  ),
})

const CompareQuery = Schema.Struct({
  a: position("a run index (an integer ≥ 0)"),
  b: position("a run index (an integer ≥ 0)"),
})

/** A repeated parameter counts once, as its first value. */
const firstValues = (query: ViewerQuery) =>
  Object.fromEntries(Object.entries(query).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]))

const decodeQuery = <A, I>(schema: Schema.Schema<A, I>, query: ViewerQuery) =>
  Either.mapLeft(Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })(firstValues(query)), (error) => {
    const [issue] = ParseResult.ArrayFormatter.formatErrorSync(error)
    const field = issue?.path.join(".") || "query"
    const got = issue?.path.length === 1 ? firstValues(query)[String(issue.path[0])] : undefined
    const message = issue?.message === "is missing" ? "is required" : (issue?.message ?? "is invalid")
    return new ViewerError({
      reason: "InvalidRequest",
      field,
      message: `${field}: ${message}${got === undefined ? "" : `, got "${got}"`}`,
    })
  })

const notFound = (message: string) => new ViewerError({ reason: "NotFound", message })

const INTEGER = /^-?\d{1,15}$/

/** What a rollout's path may end with past its seed and attempt: its timeline, its agent's own output. */
const ROLLOUT_PARTS = new Set(["steps", "agent_trajectory"])

/** What a comparison reads of a result: the heavy parts (task-app details, transcript, retries) left behind. */
const forComparison = (result: EvalResult): EvalResult => {
  const { details: _d, final: _f, info: _i, trace: _t, retry_log: _r, ...kept } = result
  return kept
}

export interface ViewerApiOptions {
  /** The runs are this grid run's variants, in its order: the API answers `grid` too. */
  readonly grid?: GridSpec | undefined
}

export const makeViewerApi = <E>(runs: ReadonlyArray<ViewerRun<E>>, options: ViewerApiOptions = {}): ViewerApi<E> => {
  const runAt = (segment: string | undefined) => {
    const index = segment !== undefined && /^\d{1,6}$/.test(segment) ? Number(segment) : -1
    const run = runs[index]
    return run === undefined
      ? Either.left(notFound(`no run ${segment ?? ""}: this viewer has runs 0 to ${runs.length - 1}`.trim()))
      : Either.right({ run, index })
  }

  const heads = Effect.forEach(runs, (run, index) => Effect.map(run.head, (head): RunHead => ({ index, ...head })))

  const comparable = (run: ViewerRun<E>) =>
    Effect.map(Stream.runCollect(Stream.map(run.results, forComparison)), Chunk.toReadonlyArray)

  /** Every variant's journal streamed through the grid's builder; flips pass at the first variant's threshold. */
  const gridView = (spec: GridSpec): Effect.Effect<GridView, ViewerError | E> =>
    Effect.gen(function* () {
      const builder = new GridViewBuilder(spec)
      yield* Effect.forEach(runs, (run, index) =>
        Stream.runForEachChunk(run.results, (results) =>
          Effect.sync(() => Chunk.forEach(results, (result) => builder.add(index, result))),
        ),
      )
      const first = runs[0] === undefined ? null : yield* runs[0].head
      return builder.view(comparisonThreshold(first?.config))
    })

  const get = (path: string, query: ViewerQuery): Effect.Effect<unknown, ViewerError | E> =>
    Effect.gen(function* () {
      const segments = path.split("/").filter((s) => s !== "")
      const [first, index, what, seed, attempt] = segments
      if (first === "runs" && segments.length === 1) return { runs: yield* heads }
      if (first === "compare" && segments.length === 1) {
        const { a, b } = yield* decodeQuery(CompareQuery, query)
        const [runA, runB] = [yield* runAt(String(a)), yield* runAt(String(b))]
        const [resultsA, resultsB, headA] = yield* Effect.all([
          comparable(runA.run),
          comparable(runB.run),
          runA.run.head,
        ])
        return compareResults(resultsA, resultsB, { passThreshold: comparisonThreshold(headA.config) })
      }
      if (first === "grid" && segments.length === 1) {
        if (options.grid === undefined) return yield* notFound("this viewer shows no grid run")
        return yield* gridView(options.grid)
      }
      if (first !== "runs") return yield* notFound(`no route ${path}`)
      const { run } = yield* runAt(index)
      if (what === "rows" && segments.length === 3) {
        const { from, limit } = yield* decodeQuery(RowsQuery, query)
        return yield* run.rows(from ?? 0, limit ?? MAX_ROWS_PER_PAGE)
      }
      if (what === "live" && segments.length === 3) {
        const live = yield* run.live
        if (live === null) return yield* notFound(`run ${index} is not followed live here`)
        return live
      }
      const part = segments[5]
      if (what === "rollouts" && (segments.length === 5 || (segments.length === 6 && ROLLOUT_PARTS.has(part ?? "")))) {
        if (!INTEGER.test(seed ?? "") || !/^\d{1,9}$/.test(attempt ?? "")) {
          return yield* notFound(`no rollout ${seed}/${attempt}: expected an integer seed and attempt`)
        }
        if (part === "steps") {
          return { steps: run.steps === undefined ? [] : yield* run.steps(Number(seed), Number(attempt)) }
        }
        if (part === "agent_trajectory") {
          return { events: run.agentEvents === undefined ? [] : yield* run.agentEvents(Number(seed), Number(attempt)) }
        }
        const found = yield* run.rollout(Number(seed), Number(attempt))
        if (Option.isNone(found))
          return yield* notFound(`run ${index} has no rollout of seed ${seed} attempt ${attempt}`)
        return found.value
      }
      return yield* notFound(`no route ${path}`)
    })

  const watch = (onUpdate: (run: number) => void) => {
    const timers = new Map<number, NodeJS.Timeout>()
    const lastSent = new Map<number, number>()
    const send = (index: number) => {
      timers.delete(index)
      lastSent.set(index, Date.now())
      onUpdate(index)
    }
    const stops = runs.map((run, index) =>
      run.watch(() => {
        if (timers.has(index)) return
        const wait = (lastSent.get(index) ?? 0) + UPDATE_EVERY_MS - Date.now()
        if (wait <= 0) send(index)
        else
          timers.set(
            index,
            setTimeout(() => send(index), wait),
          )
      }),
    )
    return () => {
      for (const stop of stops) stop()
      for (const timer of timers.values()) clearTimeout(timer)
    }
  }

  return { get, watch }
}
