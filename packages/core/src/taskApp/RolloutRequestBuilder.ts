import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { randomHex } from "../internal/randomHex.js"
import type { RolloutKey } from "../result/EvalResult.js"
import type { RolloutRequest } from "./TaskAppWire.js"

/** `{app_id|env_name|"eval"}-seed-{seed}-{8 hex}`, synth-ai's run_id form. */
export const makeRolloutId = (config: EvalRunConfig, seed: number): string =>
  `${config.app_id ?? config.env_name ?? "eval"}-seed-${seed}-${randomHex(4)}`

const LIFTED_POLICY_KEYS = new Set(["output_mode", "structured_config"])

/** The superset rollout request every task-app generation accepts. */
export const buildRolloutRequest = (config: EvalRunConfig, key: RolloutKey, rolloutId: string): RolloutRequest => {
  const policyConfig: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(config.policy_config)) if (!LIFTED_POLICY_KEYS.has(k)) policyConfig[k] = v
  const { output_mode, structured_config } = config.policy_config
  return {
    run_id: rolloutId,
    trace_correlation_id: rolloutId,
    env: { env_name: config.env_name ?? config.app_id ?? "default", config: { ...config.env_config }, seed: key.seed },
    policy: {
      policy_name: config.policy_name ?? config.app_id ?? "policy",
      config: policyConfig,
      ...(output_mode === undefined ? {} : { output_mode }),
      ...(structured_config === undefined ? {} : { structured_config }),
    },
    record: {
      trajectories: true,
      logprobs: false,
      value: false,
      return_trace: config.return_trace,
      trace_format: config.trace_format,
    },
    on_done: "reset",
    safety: { max_ops: 100_000, max_time_s: config.timeout_s },
    training_session_id: null,
    synth_base_url: null,
    mode: "eval",
    ...(config.ops === null ? {} : { ops: config.ops }),
  }
}

// Placeholders no config could plausibly contain, replaced by each rollout's id and seed.
const ID_SLOT = "@@proctor-rollout-id-5b1f0c@@"
const SEED_SLOT = "@@proctor-seed-5b1f0c@@"
const templates = new WeakMap<EvalRunConfig, ReadonlyArray<string>>()

const templateOf = (config: EvalRunConfig): ReadonlyArray<string> => {
  let template = templates.get(config)
  if (template === undefined) {
    const request = buildRolloutRequest(config, { seed: 0, attempt: 0 }, ID_SLOT)
    const withSlots = { ...request, env: { ...request.env, seed: SEED_SLOT } }
    template = JSON.stringify(withSlots).split(new RegExp(`"${ID_SLOT}"|"${SEED_SLOT}"`))
    templates.set(config, template)
  }
  return template
}

/**
 * The rollout request as JSON, from a template made once per config: only the ids and the seed change
 * between rollouts, and serialising the whole request each time is a measurable part of the hot path.
 */
export const encodeRolloutRequest = (config: EvalRunConfig, key: RolloutKey, rolloutId: string): string => {
  const [beforeId = "", betweenIds = "", beforeSeed = "", rest = ""] = templateOf(config)
  const id = JSON.stringify(rolloutId)
  return `${beforeId}${id}${betweenIds}${id}${beforeSeed}${key.seed}${rest}`
}
