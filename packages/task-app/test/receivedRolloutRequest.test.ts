import type { RolloutRequestSchema } from "@proctor/core"
import { describe, expectTypeOf, it } from "vitest"
import type { ReceivedRolloutRequest } from "../src/index.js"

/** What the SDK decodes a `POST /rollout` body into, with `run_id` filled in (createTaskApp.ts). */
type Decoded = Omit<typeof RolloutRequestSchema.Type, "run_id"> & { readonly run_id: string }

describe("ReceivedRolloutRequest, the handler's plain-TypeScript view of the decoded request", () => {
  it("names exactly the decoding schema's fields, with the same types (checked by tsc)", () => {
    expectTypeOf<keyof ReceivedRolloutRequest>().toEqualTypeOf<keyof Decoded>()
    expectTypeOf<Decoded>().toExtend<ReceivedRolloutRequest>()
    expectTypeOf<ReceivedRolloutRequest>().toExtend<Decoded>()
    expectTypeOf<keyof ReceivedRolloutRequest["env"]>().toEqualTypeOf<keyof Decoded["env"]>()
    expectTypeOf<keyof ReceivedRolloutRequest["policy"]>().toEqualTypeOf<keyof Decoded["policy"]>()
    expectTypeOf<keyof NonNullable<ReceivedRolloutRequest["record"]>>().toEqualTypeOf<
      keyof NonNullable<Decoded["record"]>
    >()
    expectTypeOf<keyof NonNullable<ReceivedRolloutRequest["safety"]>>().toEqualTypeOf<
      keyof NonNullable<Decoded["safety"]>
    >()
  })
})
