import { Effect } from "effect"

export type GenaiPrices = typeof import("@pydantic/genai-prices")

let loaded: GenaiPrices | undefined

/**
 * `@pydantic/genai-prices`, imported when something is first priced or a table installed. Loading it builds its
 * whole table (~500 KB of objects): ~25 ms of a process's start-up, which a run that prices nothing
 * (`--no-intercept`, a report, a resume with nothing left) no longer pays. In the CLI's eval script the `import()`
 * becomes a lazy initialiser of the bundled module (packages/cli/test/bundle.test.ts holds the bundle to it).
 */
export const loadGenaiPrices: Effect.Effect<GenaiPrices> = Effect.suspend(() =>
  loaded !== undefined
    ? Effect.succeed(loaded)
    : Effect.map(
        Effect.promise(() => import("@pydantic/genai-prices")),
        (module) => (loaded = module),
      ),
)
