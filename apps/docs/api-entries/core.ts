/**
 * proctor's Effect core: wire schemas, config, the task-app client, solvers, the runner, the journal, the summary,
 * pricing — and `evaluate()`, the Promise API for evals in your own process.
 * @module @proctor/core
 */
export * from "@proctor/core"
