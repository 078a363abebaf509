import { Cause, Effect, Schema } from "effect"
import { causeMessage } from "../internal/causeMessage.js"

/**
 * A job server or a rollout worker that could not start: `Options` it was given cannot work together, its
 * services could not be built (database, secret key, Redis), or it could not set up its `Http` server (a port
 * taken) or `Resume` the jobs a previous process left.
 */
export class StartError extends Schema.TaggedError<StartError>()("StartError", {
  reason: Schema.Literal("Options", "Services", "Http", "Resume"),
  message: Schema.String,
  cause: Schema.optional(Schema.Defect),
}) {}

/**
 * Any failure or defect of a start-up step as a `StartError` saying `what cannot start: why` (the failure's own
 * message), its cause kept. An interruption stays one.
 */
export const orStartError =
  (what: string, reason: StartError["reason"]) =>
  <A, E, R>(step: Effect.Effect<A, E, R>): Effect.Effect<A, StartError, R> =>
    Effect.catchAllCause(step, (cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause as Cause.Cause<never>)
        : Effect.fail(new StartError({ reason, message: `${what} cannot start: ${causeMessage(cause)}`, cause })),
    )
