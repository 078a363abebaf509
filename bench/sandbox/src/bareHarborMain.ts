/**
 * The bare client as a process of its own, as proctor is one: `node bareHarborMain.js TASKS_DIR CONCURRENCY`
 * runs every task directory of TASKS_DIR with the oracle and prints `{"rewards": [...]}`.
 */
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { BareHarbor } from "./bareHarbor.js"

const [tasksDir, concurrency] = process.argv.slice(2)
if (tasksDir === undefined || concurrency === undefined)
  throw new Error("usage: bareHarborMain.js TASKS_DIR CONCURRENCY")
const dirs = readdirSync(tasksDir)
  .sort()
  .map((name) => join(tasksDir, name))
const bare = new BareHarbor()
try {
  const rewards = await bare.runAll(dirs, Number(concurrency))
  process.stdout.write(`${JSON.stringify({ rewards })}\n`)
} finally {
  await bare.close()
}
