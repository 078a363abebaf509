import type { EvalResult } from "@proctor/core"

/** Results as a report reads them: an array, a generator, or an async iterable over a journal. */
export type ResultSource = Iterable<EvalResult> | AsyncIterable<EvalResult>

/** The secret-free config as reports record it, e.g. `publicConfig(config)`. */
export type ReportConfig = Readonly<Record<string, unknown>>
