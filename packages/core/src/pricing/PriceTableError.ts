import { Schema } from "effect"

/** `proctor pricing update` could not fetch or keep the table; the copy runs use is left as it was. */
export class PriceTableError extends Schema.TaggedError<PriceTableError>()("PriceTableError", {
  reason: Schema.Literal("Unreachable", "BadResponse", "WriteFailed"),
  message: Schema.String,
  cause: Schema.optional(Schema.Defect),
}) {}
