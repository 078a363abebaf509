import { Either } from "effect"
import type { ValidationIssue } from "./decodeRolloutRequest.js"

const values = (raw: unknown): ReadonlyArray<unknown> => (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw])

/** `?seed=1&seed=2` and `?seeds=…` (synth-ai reads both), each an integer, in the order given. */
export const seedsOf = (query: Record<string, unknown>): Either.Either<number[], ReadonlyArray<ValidationIssue>> => {
  const seeds: number[] = []
  const issues: ValidationIssue[] = []
  for (const name of ["seed", "seeds"] as const) {
    values(query[name]).forEach((value, index) => {
      const text = String(value).trim()
      if (/^-?\d+$/.test(text)) seeds.push(Number(text))
      else issues.push({ type: "int_parsing", loc: ["query", name, index], msg: `expected an integer, got "${text}"` })
    })
  }
  return issues.length === 0 ? Either.right(seeds) : Either.left(issues)
}
