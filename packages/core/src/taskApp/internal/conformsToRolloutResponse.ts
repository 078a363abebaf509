/**
 * A hand-written check that a JSON value fits `RolloutResponse`, about 20× cheaper than the Schema decode.
 * It may be stricter than the Schema, never more lenient (a property test holds it to that): values it
 * rejects go through the Schema, which gives the error message.
 */
type Check = (u: unknown) => boolean

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const orNull =
  (check: Check): Check =>
  (u) =>
    u === undefined || u === null || check(u)
const isString: Check = (u) => typeof u === "string"
const isNumber: Check = (u) => typeof u === "number"
const isBoolean: Check = (u) => typeof u === "boolean"
const arrayOf =
  (check: Check): Check =>
  (u) =>
    Array.isArray(u) && u.every(check)
const isArray: Check = Array.isArray

const shape =
  (fields: Record<string, Check>): Check =>
  (u) => {
    if (!isObject(u)) return false
    for (const key in fields) if (!fields[key]!(u[key])) return false
    return true
  }

const optionalNumber = orNull(isNumber)

const metrics = shape({
  episode_returns: orNull(arrayOf(isNumber)),
  mean_return: optionalNumber,
  num_steps: optionalNumber,
  num_episodes: optionalNumber,
  outcome_score: optionalNumber,
  events_score: optionalNumber,
  outcome_reward: optionalNumber,
  outcome_objectives: orNull(isObject),
  event_rewards: orNull(isArray),
  reward_mean: optionalNumber,
  episode_rewards: orNull(isArray),
  details: orNull(isObject),
})

const step = shape({
  reward: optionalNumber,
  done: orNull(isBoolean),
  truncated: orNull(isBoolean),
  info: orNull(isObject),
})

const trajectory = shape({
  env_id: orNull(isString),
  policy_id: orNull(isString),
  steps: (u) => u === undefined || (Array.isArray(u) && u.every(step)),
  length: optionalNumber,
  inference_url: orNull(isString),
})

export const conformsToRolloutResponse: Check = shape({
  run_id: orNull(isString),
  trace_correlation_id: orNull(isString),
  trajectories: orNull(arrayOf(trajectory)),
  metrics: orNull(metrics),
  reward_info: orNull(metrics),
  aborted: orNull(isBoolean),
  ops_executed: optionalNumber,
})
