import { Schema } from "effect"

/**
 * Why the viewer data API did not answer: `NotFound` (no such route, run, rollout or live state), `InvalidRequest`
 * (a query parameter, named in `field`), `Unavailable` (the run's files could not be read).
 */
export class ViewerError extends Schema.TaggedError<ViewerError>()("ViewerError", {
  reason: Schema.Literal("NotFound", "InvalidRequest", "Unavailable"),
  message: Schema.String,
  field: Schema.optional(Schema.String),
}) {}

/** The HTTP status and error code of a `ViewerError`, for every host of the API. */
export const viewerErrorStatus = (error: ViewerError): { readonly status: number; readonly code: string } => {
  switch (error.reason) {
    case "NotFound":
      return { status: 404, code: "not_found" }
    case "InvalidRequest":
      return { status: 400, code: "invalid_request" }
    case "Unavailable":
      return { status: 503, code: "unavailable" }
  }
}
