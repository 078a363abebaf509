/**
 * The by-hand side of the agents bench as a process of its own (as `proctor eval` is one):
 * `node handMain.js AGENT TASKS_DIR MODEL_URL [--no-limits]` runs each task by hand (under the task's limits, unless
 * `--no-limits`) and prints `{"rewards": […]}`.
 */
import type { AgentName } from "./agentPrograms.js"
import { handRollouts } from "./handRun.js"

const [agent, tasksDir, modelUrl, flag] = process.argv.slice(2)
if (agent === undefined || tasksDir === undefined || modelUrl === undefined) {
  process.stderr.write("usage: node handMain.js AGENT TASKS_DIR MODEL_URL\n")
  process.exit(2)
}
handRollouts(agent as AgentName, tasksDir, modelUrl, flag !== "--no-limits").then(
  (rewards) => process.stdout.write(`${JSON.stringify({ rewards })}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  },
)
