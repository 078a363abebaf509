export { ExitCode } from "./exitCodes.js"
export { main } from "./main.js"
