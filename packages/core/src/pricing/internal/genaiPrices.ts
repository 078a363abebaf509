import { Effect } from "effect"

export type GenaiPrices = typeof import("@pydantic/genai-prices")

/**
 * `@pydantic/genai-prices`, imported when something is first priced or a table installed. Loading it builds its
 * whole table (~500 KB of objects): ~25 ms of a process's start-up, which a run that prices nothing
 * (`--no-intercept`, a report, a resume with nothing left) no longer pays. The module loads once per process however
 * often this runs: `import()` keeps it, and in the CLI's eval script it becomes the bundled module's once-only
 * initialiser (packages/cli/test/bundle.test.ts holds the bundle to it).
 */
export const loadGenaiPrices: Effect.Effect<GenaiPrices> = Effect.promise(() => import("@pydantic/genai-prices"))
