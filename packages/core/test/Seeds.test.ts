import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import fc from "fast-check"
import { expandSeeds, Seeds } from "../src/plan/Seeds.js"

/** The plain rule: every item's seeds in order, each kept the first time it appears. */
const firstOccurrences = (items: ReadonlyArray<number | string>): Array<number> => {
  const seen = new Set<number>()
  const out: Array<number> = []
  for (const item of items) {
    for (const seed of Either.getOrElse(expandSeeds(item, 1_000), () => [])) {
      if (seen.has(seed)) continue
      seen.add(seed)
      out.push(seed)
    }
  }
  return out
}

const seed = fc.integer({ min: -20, max: 20 })
const item = fc.oneof(
  seed,
  seed.map(String),
  fc.tuple(seed, fc.nat({ max: 15 })).map(([from, length]) => `${from}-${from + length}`),
  fc.array(seed, { minLength: 1, maxLength: 4 }).map((seeds) => seeds.join(",")),
)

describe("expandSeeds (the one seed rule of configs, flags and the job API)", () => {
  it("expands integers, strings and ranges to distinct seeds in order", () => {
    expect(expandSeeds([3, "0-2", "1,5, 7-8"], 100)).toEqual(Either.right([3, 0, 1, 2, 5, 7, 8]))
    expect(expandSeeds("4", 100)).toEqual(Either.right([4]))
  })

  it("refuses more than the maximum before expanding anything, saying whose maximum", () => {
    expect(expandSeeds("0-99999999999999", 10, "this server's limit per job")).toEqual(
      Either.left("more than 10 seeds (this server's limit per job)"),
    )
    expect(expandSeeds([0, 1, "2-10"], 10)).toEqual(Either.left("more than 10 seeds"))
  })

  it("names what is not a seed", () => {
    expect(expandSeeds(["9-0"], 100)).toEqual(Either.left('range "9-0" ends before it starts'))
    expect(expandSeeds(["x"], 100)).toEqual(Either.left('"x" is not a seed (an integer) or a range like "0-99"'))
    expect(Either.isLeft(expandSeeds([2 ** 60], 100))).toBe(true)
    expect(expandSeeds([], 100)).toEqual(Either.left("no seeds given"))
  })
})

describe("Seeds", () => {
  it("decodes to each seed's first occurrence, in order, whether the seeds ascend or not", () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), (items) => {
        const expected = firstOccurrences(items)
        const decoded = Schema.decodeUnknownEither(Seeds)(items)
        if (expected.length === 0) expect(Either.isLeft(decoded)).toBe(true)
        else expect(decoded).toEqual(Either.right(expected))
      }),
      { numRuns: 2000 },
    )
  })

  it("names a wrong item of a list by its index", () => {
    for (const [items, index, got] of [
      [[1, 2.5], 1, "2.5"],
      [[true, 1], 0, "true"],
      [[0, "1-2", null], 2, "null"],
    ] as const) {
      const decoded = Schema.decodeUnknownEither(Seeds, { errors: "all" })(items)
      if (Either.isRight(decoded)) throw new Error(`${JSON.stringify(items)} decoded`)
      const issues = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)
      expect(issues).toContainEqual(
        expect.objectContaining({ path: [index], message: `expected an integer or string, got ${got}` }),
      )
    }
  })

  it("keeps a million ascending seeds as they are", () => {
    const decoded = Either.getOrThrow(Schema.decodeUnknownEither(Seeds)("0-999999"))
    expect(decoded.length).toBe(1_000_000)
    expect(decoded[999_999]).toBe(999_999)
  })
})
