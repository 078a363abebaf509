import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { EvalResult, RetryLogEntry } from "../src/result/EvalResult.js"
import { isEvalResult } from "../src/store/internal/JournalScan.js"

/** The journal's rows as the Schema reads them, but for the error kinds, which the reader lets be any string. */
const AnyKindResult = Schema.Struct({
  ...EvalResult.fields,
  error_kind: Schema.NullOr(Schema.String),
  retry_log: Schema.optional(Schema.Array(Schema.Struct({ ...RetryLogEntry.fields, kind: Schema.String }))),
})
const schemaAccepts = (u: unknown) => Either.isRight(Schema.decodeUnknownEither(AnyKindResult)(u))

const FIELDS = Object.keys(EvalResult.fields)
const RETRY_FIELDS = Object.keys(RetryLogEntry.fields)

describe("the journal reader's hand-written EvalResult check", () => {
  it("agrees with the Schema: it accepts every valid row, and whatever it accepts the Schema accepts", () => {
    const valid = Arbitrary.make(EvalResult)
    // Valid rows with one field replaced by arbitrary JSON (or removed), or any JSON at all.
    const mutated = fc
      .tuple(valid, fc.constantFrom(...FIELDS), fc.option(fc.oneof(fc.jsonValue(), fc.double()), { nil: undefined }))
      .map(([row, field, value]) => {
        const copy: Record<string, unknown> = { ...row }
        if (value === undefined) delete copy[field]
        else copy[field] = value
        return copy
      })
    fc.assert(
      fc.property(valid, (row) => {
        expect(isEvalResult(row)).toBe(true)
      }),
      { numRuns: 500 },
    )
    // Valid rows with a retry log one of whose entries has one field replaced by arbitrary JSON (or removed).
    const mutatedRetry = fc
      .tuple(
        valid,
        fc.array(Arbitrary.make(RetryLogEntry), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.constantFrom(...RETRY_FIELDS),
        fc.option(fc.oneof(fc.jsonValue(), fc.double()), { nil: undefined }),
      )
      .map(([row, log, at, field, value]) => {
        const entries: Array<Record<string, unknown>> = log.map((entry) => ({ ...entry }))
        const entry = entries[at % entries.length]!
        if (value === undefined) delete entry[field]
        else entry[field] = value
        return { ...row, retry_log: entries }
      })
    fc.assert(
      fc.property(fc.oneof(mutated, mutatedRetry, fc.jsonValue()), (candidate) => {
        if (isEvalResult(candidate)) expect(schemaAccepts(candidate)).toBe(true)
      }),
      { numRuns: 3_000 },
    )
  })
})
