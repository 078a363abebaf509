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

/** The path's stats, or undefined when nothing is there — also when a file stands where a folder of it must be. */
const statOrNone = (path: string) => {
  try {
    return statSync(path, { throwIfNoEntry: false })
  } catch {
    return undefined
  }
}

/** The closest folder of `path` that exists (the writers make the missing ones below it). */
const existingAncestor = (path: string): string => {
  let folder = dirname(path)
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder)
  return folder
}

/**
 * Why a file cannot be written at `path` (a file stands where a folder must be, a folder is read-only, it is a
 * directory), or null when it can: found before the run, not after it, when the output would be all that is lost.
 * Missing folders are fine: the writers make them.
 */
export const outputFileProblem = (path: string): string | null => {
  const full = resolve(path)
  const stats = statOrNone(full)
  if (stats?.isDirectory() === true) return `${path} is a directory, not a file`
  if (stats !== undefined) return writable(full) ? null : `${path} cannot be written (permission denied)`
  const folder = existingAncestor(full)
  if (!statSync(folder).isDirectory()) return `${path} cannot be written: ${folder} is a file`
  return writable(folder) ? null : `${path} cannot be written: its folder ${folder} is read-only`
}

/** Why `dir` cannot be a new run's directory (a file is in the way), or null when it can. */
export const runDirProblem = (dir: string): string | null => tracesDirProblem(dir)
