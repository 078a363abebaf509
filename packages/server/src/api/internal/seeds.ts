import { parseSeeds } from "@proctor/core"
import { Either } from "effect"

const RANGE = /^(-?\d+)\s*-\s*(-?\d+)$/

/** How many seeds a spec string names, without building them: "0-99999999" must not allocate first and refuse later. */
const countSpec = (spec: string): number => {
  let count = 0
  for (const raw of spec.split(",")) {
    const part = raw.trim()
    if (part === "") continue
    const range = RANGE.exec(part)
    count += range ? Math.max(0, Number(range[2]) - Number(range[1]) + 1) : 1
  }
  return count
}

/**
 * synth-ai sends a list of integers; proctor's configs also allow strings with ranges ("0-99", "1,5,10-12").
 * Returns the distinct seeds in order, or why not, refusing more than `max` before expanding anything.
 */
export const expandSeeds = (
  input: number | string | ReadonlyArray<number | string>,
  max: number,
): Either.Either<ReadonlyArray<number>, string> => {
  const items = Array.isArray(input) ? input : [input as number | string]
  let named = 0
  for (const item of items) {
    named += typeof item === "number" ? 1 : countSpec(item)
    if (named > max) return Either.left(`more than ${max} seeds (this server's limit per job)`)
  }
  const seen = new Set<number>()
  const out: Array<number> = []
  for (const item of items) {
    const parsed = typeof item === "number" ? Either.right([item]) : parseSeeds(item)
    if (Either.isLeft(parsed)) return parsed
    for (const seed of parsed.right) {
      if (!Number.isSafeInteger(seed)) return Either.left(`seed ${seed} is not a safe integer`)
      if (!seen.has(seed)) {
        seen.add(seed)
        out.push(seed)
      }
    }
  }
  if (out.length === 0) return Either.left("no seeds given")
  return Either.right(out)
}
