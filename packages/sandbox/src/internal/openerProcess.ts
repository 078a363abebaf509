import { hostname } from "node:os"
import { processAlive, processStartTime } from "./processTree.js"

/**
 * The process that opened a sandbox, as its label says it: `<host>/<pid>/<start time>`. `proctor sandbox prune`
 * removes a sandbox only once that process has ended, so a prune never pulls a sandbox from under a running eval.
 */
let own: string | undefined
export const openerProcess = (): string => {
  own ??= `${hostname()}/${process.pid}/${processStartTime(process.pid) ?? ""}`
  return own
}

/**
 * Whether the process a label names may still run: true for one on another host (it cannot be checked from here),
 * false for a label that names no process (a sandbox from before labels, or none).
 */
export const openerMayRun = (label: string | undefined): boolean => {
  const [host, pid, start] = (label ?? "").split("/")
  if (host === undefined || pid === undefined || start === undefined || start === "") return false
  if (host !== hostname()) return true
  return processAlive(Number(pid), start)
}
