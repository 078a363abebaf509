export * from "./cli.js"
export * from "./format.js"
export * from "./machine.js"
export * from "./resultsFile.js"
export * from "./stats.js"

/** The zero-work task app every bench runs as its own process: `node ZERO_WORK_TASK_APP …`. */
export const ZERO_WORK_TASK_APP = new URL("./zeroWorkTaskApp.js", import.meta.url).pathname
