import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { conformsToRolloutResponse } from "../src/taskApp/internal/conformsToRolloutResponse.js"
import { RolloutResponse } from "../src/taskApp/TaskAppWire.js"

const schemaAccepts = (u: unknown) =>
  Either.isRight(Schema.decodeUnknownEither(RolloutResponse, { onExcessProperty: "preserve" })(u))

const FIELDS = ["run_id", "trace_correlation_id", "trajectories", "metrics", "reward_info", "aborted", "ops_executed"]

describe("the hand-written rollout-response check", () => {
  it("is never more lenient than the Schema: whatever it accepts, the Schema accepts", () => {
    const valid = Arbitrary.make(RolloutResponse)
    // Valid responses with one field (or a nested metrics field) replaced by arbitrary JSON, or by a
    // non-finite number (Python's NaN and Infinity are read as numbers).
    const mutated = fc
      .tuple(valid, fc.constantFrom(...FIELDS), fc.oneof(fc.jsonValue(), fc.double()), fc.boolean())
      .map(([response, field, value, nested]) =>
        nested && typeof response.metrics === "object" && response.metrics !== null
          ? { ...response, metrics: { ...response.metrics, outcome_score: value } }
          : { ...response, [field]: value },
      )
    fc.assert(
      fc.property(fc.oneof(valid, mutated, fc.jsonValue()), (candidate) => {
        if (conformsToRolloutResponse(candidate)) expect(schemaAccepts(candidate)).toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })

  it("accepts what the Schema generates, so the hot path rarely pays for the Schema", () => {
    fc.assert(
      fc.property(Arbitrary.make(RolloutResponse), (response) => {
        expect(conformsToRolloutResponse(JSON.parse(JSON.stringify(response)))).toBe(
          schemaAccepts(JSON.parse(JSON.stringify(response))),
        )
      }),
      { numRuns: 500 },
    )
  })
})
