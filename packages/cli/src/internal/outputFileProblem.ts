import { accessSync, constants, existsSync, statSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { tracesDirProblem } from "./tracesDirProblem.js"

const writable = (path: string) => {
  try {
    accessSync(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}

/**
 * Why a file cannot be written at `path` (its folder is missing or read-only, it is a directory), or null
 * when it can: found before the run, not after it, when the output would be all that is lost.
 */
export const outputFileProblem = (path: string): string | null => {
  const full = resolve(path)
  const stats = statSync(full, { throwIfNoEntry: false })
  if (stats?.isDirectory() === true) return `${path} is a directory, not a file`
  if (stats !== undefined) return writable(full) ? null : `${path} cannot be written (permission denied)`
  const folder = dirname(full)
  if (!existsSync(folder)) return `${path} cannot be written: its folder ${folder} does not exist`
  if (!statSync(folder).isDirectory()) return `${path} cannot be written: ${folder} is a file`
  return writable(folder) ? null : `${path} cannot be written: its folder ${folder} is read-only`
}

/** Why `dir` cannot be a new run's directory (a file is in the way), or null when it can. */
export const runDirProblem = (dir: string): string | null => tracesDirProblem(dir)
