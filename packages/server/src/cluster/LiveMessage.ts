import { ErrorKind, RolloutStep } from "@proctor/core"
import { Schema } from "effect"

const RolloutKey = Schema.Struct({ seed: Schema.Number, attempt: Schema.Number })

/**
 * The run events a live view folds about one rollout (core's `RunEvent`s of that name, as JSON): what a worker tells
 * the replicas of the rollouts it runs. A step travels summarised (`summarisedStep`), a retry's error cut short.
 */
export const LiveRolloutEvent = Schema.Union(
  Schema.TaggedStruct("RolloutStarted", {
    key: RolloutKey,
    retry: Schema.Number,
    timeoutMs: Schema.optionalWith(Schema.Number, { exact: true }),
  }),
  Schema.TaggedStruct("RolloutStep", {
    step: RolloutStep,
    agentTimeLeftMs: Schema.optionalWith(Schema.Number, { exact: true }),
  }),
  Schema.TaggedStruct("ModelCallFinished", {
    key: RolloutKey,
    tokens: Schema.NullOr(Schema.Number),
    costUsd: Schema.NullOr(Schema.Number),
  }),
  Schema.TaggedStruct("RolloutRetried", {
    key: RolloutKey,
    retry: Schema.Number,
    errorKind: ErrorKind,
    error: Schema.String,
    delayMs: Schema.Number,
  }),
  Schema.TaggedStruct("RolloutLeft", { key: RolloutKey }),
)
export type LiveRolloutEvent = typeof LiveRolloutEvent.Type

/** One flush of a worker's news about the rollouts of one job it runs, oldest first. */
export const WorkerLiveMessage = Schema.Struct({
  job_id: Schema.String,
  worker: Schema.String,
  events: Schema.Array(LiveRolloutEvent),
})
export type WorkerLiveMessage = typeof WorkerLiveMessage.Type

/** A dispatcher queued these rollouts of a job again (lost): whoever ran them is no longer heard about them. */
export const RedispatchedMessage = Schema.Struct({
  job_id: Schema.String,
  redispatched: Schema.Array(RolloutKey),
})
export type RedispatchedMessage = typeof RedispatchedMessage.Type

/** What travels on a cluster's live channel (`liveChannel`), as JSON. */
export const LiveMessage = Schema.Union(WorkerLiveMessage, RedispatchedMessage)
export type LiveMessage = typeof LiveMessage.Type

export const decodeLiveMessage = Schema.decodeUnknownEither(Schema.parseJson(LiveMessage))
