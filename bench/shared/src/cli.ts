import { spawnSync } from "node:child_process"

/** The value after a flag (`--name value`), if given. */
export const argString = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i === -1 ? undefined : process.argv[i + 1]
}

export interface NumberRule {
  readonly holds: (n: number) => boolean
  readonly expected: string
}

export const NON_NEGATIVE: NumberRule = { holds: (n) => n >= 0, expected: "a non-negative number" }
export const POSITIVE_INTEGER: NumberRule = {
  holds: (n) => Number.isInteger(n) && n > 0,
  expected: "a positive integer",
}

/** A numeric flag, or `fallback` when absent; a value breaking `rule` stops the bench with the flag named. */
export const argNumber = (name: string, fallback: number, rule: NumberRule = NON_NEGATIVE): number => {
  const raw = argString(name)
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || !rule.holds(n)) throw new Error(`${name}: expected ${rule.expected}`)
  return n
}

export const log = (s: string) => process.stderr.write(`${s}\n`)
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Which proctor was measured: the commit of the checkout at `cwd`, and whether packages/ had changes. */
export const describeCommit = (cwd: string): string | null => {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd, encoding: "utf8" })
  if (head.status !== 0) return null
  const dirty = spawnSync("git", ["status", "--porcelain", "--", "packages"], { cwd, encoding: "utf8" })
  return `commit ${head.stdout.trim()}${dirty.stdout.trim() === "" ? "" : " with uncommitted changes under packages/"}`
}
