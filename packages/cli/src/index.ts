export { ExitCode, exitCodeMeanings } from "./exitCodes.js"
export { createProgram, main } from "./main.js"
export { evalFlags } from "./program/evalFlags.js"
