import { Either, ParseResult, Schema } from "effect"

const MAX_SEEDS = 10_000_000
const UNSAFE = "seeds are integers of at most 2^53 - 1 in size"
const RANGE = /^(-?\d+)\s*-\s*(-?\d+)$/

/** One item of a seed list: an integer, or a string of integers and inclusive ranges ("0-99", "1,5,10-12"). */
export type SeedItem = number | string

/** How many seeds an item names, without building them: "0-99999999" must not allocate first and refuse later. */
const countItem = (item: SeedItem): number => {
  if (typeof item === "number") return 1
  let count = 0
  for (const raw of item.split(",")) {
    const part = raw.trim()
    if (part === "") continue
    const range = RANGE.exec(part)
    count += range ? Math.max(0, Number(range[2]) - Number(range[1]) + 1) : 1
  }
  return count
}

const parseSeedSpec = (spec: string): Either.Either<ReadonlyArray<number>, string> => {
  const seeds: Array<number> = []
  for (const raw of spec.split(",")) {
    const part = raw.trim()
    if (part === "") continue
    const range = RANGE.exec(part)
    if (range) {
      const from = Number(range[1])
      const to = Number(range[2])
      // Past 2^53 `s++` no longer moves: the loop below would never end.
      if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return Either.left(`range "${part}": ${UNSAFE}`)
      if (to < from) return Either.left(`range "${part}" ends before it starts`)
      for (let s = from; s <= to; s++) seeds.push(s)
    } else if (/^-?\d+$/.test(part)) {
      if (!Number.isSafeInteger(Number(part))) return Either.left(`seed "${part}": ${UNSAFE}`)
      seeds.push(Number(part))
    } else {
      return Either.left(`"${part}" is not a seed (an integer) or a range like "0-99"`)
    }
  }
  return Either.right(seeds)
}

/**
 * The seed rule, for a config file, a flag and the job API alike: the distinct seeds a list of items names,
 * in order, or why not. More than `max` is refused before anything is expanded; `limit` says whose maximum it is.
 */
export const expandSeeds = (
  input: SeedItem | ReadonlyArray<SeedItem>,
  max: number,
  limit?: string,
): Either.Either<ReadonlyArray<number>, string> => {
  const items: ReadonlyArray<SeedItem> = Array.isArray(input) ? input : [input as SeedItem]
  let named = 0
  for (const item of items) {
    named += countItem(item)
    if (named > max) return Either.left(`more than ${max} seeds${limit === undefined ? "" : ` (${limit})`}`)
  }
  // Seeds usually ascend ("0-999999"): then none can repeat, and the set of those seen (tens of MB for a
  // million seeds) is built only once a seed does not ascend.
  let seen: Set<number> | null = null
  const out: Array<number> = []
  for (const item of items) {
    if (typeof item === "number" && !Number.isSafeInteger(item)) return Either.left(`seed ${item}: ${UNSAFE}`)
    const parsed = typeof item === "number" ? Either.right([item]) : parseSeedSpec(item)
    if (Either.isLeft(parsed)) return parsed
    for (const seed of parsed.right) {
      if (seen === null && (out.length === 0 || seed > out[out.length - 1]!)) {
        out.push(seed)
        continue
      }
      seen ??= new Set(out)
      if (!seen.has(seed)) {
        seen.add(seed)
        out.push(seed)
      }
    }
  }
  if (out.length === 0) return Either.left("no seeds given")
  return Either.right(out)
}

const SeedItemSchema = Schema.Union(Schema.Int, Schema.String)

const isSeedItem = (u: unknown): u is SeedItem => typeof u === "string" || Number.isSafeInteger(u)

// The lists below are checked in one pass: Schema.Array decodes element by element and holds a pair per element
// until the end, ~100 bytes a seed at once (a million seeds: ~100 MB on top of the list itself).

/** A list of seed items; a wrong item is named by its index. */
const SeedItemList = Schema.declare(
  [],
  {
    decode: () => (input, _, ast) => {
      if (!Array.isArray(input)) return ParseResult.fail(new ParseResult.Type(ast, input))
      const wrong = input.findIndex((item) => !isSeedItem(item))
      if (wrong === -1) return ParseResult.succeed(input as ReadonlyArray<SeedItem>)
      const item: unknown = input[wrong]
      const message = `expected an integer or string, got ${JSON.stringify(item)}`
      return ParseResult.fail(
        new ParseResult.Pointer(wrong, input, new ParseResult.Type(SeedItemSchema.ast, item, message)),
      )
    },
    encode: () => (items) => ParseResult.succeed(items),
  },
  {
    identifier: "ReadonlyArray<Int | string>",
    jsonSchema: { type: "array", items: { anyOf: [{ type: "integer" }, { type: "string" }] } },
  },
)

/** A decoded list of seeds: integers. */
const SeedList = Schema.declare(
  (u: unknown): u is ReadonlyArray<number> => Array.isArray(u) && u.every((seed) => Number.isSafeInteger(seed)),
  { identifier: "ReadonlyArray<Int>", jsonSchema: { type: "array", items: { type: "integer" } } },
)

/**
 * Seeds as synth-ai writes them: a list of integers, or strings holding integers and inclusive ranges
 * (`"0-99"`, `"1,5,10-12"`), or one such string. Decodes to a flat list without duplicates, in order.
 */
export const Seeds = Schema.transformOrFail(Schema.Union(SeedItemSchema, SeedItemList), SeedList, {
  strict: true,
  decode: (input, _, ast) =>
    Either.match(expandSeeds(input, MAX_SEEDS), {
      onLeft: (why) => ParseResult.fail(new ParseResult.Type(ast, input, why)),
      onRight: ParseResult.succeed,
    }),
  encode: (seeds) => ParseResult.succeed(seeds),
})
