/**
 * The bare `node:http` loop as a process of its own, for comparing whole processes with `proctor eval`:
 * `node bareLoopProcess.js PORT ROLLOUTS CONCURRENCY`. Exits 1 when an answer was not the expected one.
 */
import { nodeHttpLoop } from "./nodeHttpLoop.js"

const [port, rollouts, concurrency] = process.argv.slice(2).map(Number)
const wrong = await nodeHttpLoop(port!, rollouts!, concurrency!)
if (wrong > 0) {
  process.stderr.write(`${wrong} of ${rollouts} answers were not the expected rollout response\n`)
  process.exitCode = 1
}
