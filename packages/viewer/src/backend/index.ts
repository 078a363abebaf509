/**
 * `@proctor/viewer/backend`: what answers the page's data API — a run directory or a live run seen as a
 * `ViewerRun`, the API over a set of them, and `proctor view`'s local server. The job server mounts the same
 * API on its own routes. Without the page: a server that answers rows never loads the page's HTML.
 */
export type { GridSpec } from "../gridView.js"
export * from "./gridDirectoryRuns.js"
export * from "./runDirectoryRun.js"
export * from "./runsFolder.js"
export * from "./serveViewerLocally.js"
export * from "./ViewerApi.js"
export * from "./ViewerError.js"
export * from "./ViewerRun.js"
