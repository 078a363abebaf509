import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { randomHex } from "../internal/randomHex.js"
import type { RolloutKey } from "../result/EvalResult.js"
import type { RolloutTask } from "../solver/Solver.js"
import type { RolloutRequest } from "./TaskAppWire.js"

/** `{app_id|env_name|"eval"}-seed-{seed}-{8 hex}`, synth-ai's run_id form. */
export const makeRolloutId = (config: EvalRunConfig, seed: number): string =>
  `${config.app_id ?? config.env_name ?? "eval"}-seed-${seed}-${randomHex(4)}`

const LIFTED_POLICY_KEYS = new Set(["output_mode", "structured_config"])

/**
 * The policy config a task app is sent. Given the try's own `inferenceUrl` (the interceptor's), it takes the
 * place of the configured one and the upstream key is left out: the interceptor sends it, the task app never
 * needs to see it.
 */
const policyConfigOf = (config: EvalRunConfig, inferenceUrl: string | undefined): Record<string, unknown> => {
  const policyConfig: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(config.policy_config)) {
    if (LIFTED_POLICY_KEYS.has(k) || (inferenceUrl !== undefined && k === "api_key")) continue
    policyConfig[k] = v
  }
  if (inferenceUrl !== undefined) policyConfig.inference_url = inferenceUrl
  return policyConfig
}

/** The superset rollout request every task-app generation accepts. */
export const buildRolloutRequest = (
  config: EvalRunConfig,
  key: RolloutKey,
  rolloutId: string,
  inferenceUrl?: string,
): RolloutRequest => {
  const { output_mode, structured_config } = config.policy_config
  return {
    run_id: rolloutId,
    trace_correlation_id: rolloutId,
    env: { env_name: config.env_name ?? config.app_id ?? "default", config: { ...config.env_config }, seed: key.seed },
    policy: {
      policy_name: config.policy_name ?? config.app_id ?? "policy",
      config: policyConfigOf(config, inferenceUrl),
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

// Placeholders no config could plausibly contain, replaced by each rollout's values.
const SLOTS = {
  id: "@@proctor-rollout-id-5b1f0c@@",
  seed: "@@proctor-seed-5b1f0c@@",
  url: "@@proctor-inference-url-5b1f0c@@",
} as const
type Slot = keyof typeof SLOTS
const SLOT_PATTERN = new RegExp(`"(${Object.values(SLOTS).join("|")})"`)
const SLOT_OF = new Map<string, Slot>(Object.entries(SLOTS).map(([slot, text]) => [text, slot as Slot]))

/** The request's JSON cut at each slot: `parts[i]`, then the value of `slots[i]`, …, then the last part. */
interface Template {
  readonly parts: ReadonlyArray<string>
  readonly slots: ReadonlyArray<Slot>
}

/** Per config, made once: the templates sending the configured model URL, and those sending each try's own. */
const configuredTemplates = new WeakMap<EvalRunConfig, Template>()
const routedTemplates = new WeakMap<EvalRunConfig, Template>()

const makeTemplate = (config: EvalRunConfig, routed: boolean): Template => {
  const request = buildRolloutRequest(config, { seed: 0, attempt: 0 }, SLOTS.id, routed ? SLOTS.url : undefined)
  // split with a capturing group keeps each slot's text at the odd indexes.
  const pieces = JSON.stringify({ ...request, env: { ...request.env, seed: SLOTS.seed } }).split(SLOT_PATTERN)
  return {
    parts: pieces.filter((_, i) => i % 2 === 0),
    slots: pieces.filter((_, i) => i % 2 === 1).map((text) => SLOT_OF.get(text)!),
  }
}

const templateOf = (config: EvalRunConfig, routed: boolean): Template => {
  const templates = routed ? routedTemplates : configuredTemplates
  let template = templates.get(config)
  if (template === undefined) {
    template = makeTemplate(config, routed)
    templates.set(config, template)
  }
  return template
}

/**
 * A try's rollout request as JSON, from a template made once per config: only the ids, the seed and the model URL
 * change between rollouts, and serialising the whole request each time is a measurable part of the hot path.
 */
export const encodeRolloutRequest = (
  task: Pick<RolloutTask, "config" | "key" | "rolloutId" | "inferenceUrl">,
): string => {
  const { parts, slots } = templateOf(task.config, task.inferenceUrl !== undefined)
  const values = {
    id: JSON.stringify(task.rolloutId),
    seed: String(task.key.seed),
    url: JSON.stringify(task.inferenceUrl ?? null),
  }
  let json = parts[0]!
  for (let i = 0; i < slots.length; i++) json += values[slots[i]!] + parts[i + 1]!
  return json
}
