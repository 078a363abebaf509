import { isDeepStrictEqual } from "node:util"
import { Either } from "effect"
import { ConfigError } from "./ConfigError.js"
import type { EvalRunConfig, EvalTomlSection, PublicEvalRunConfig } from "./EvalRunConfig.js"
import { withoutSecrets } from "./withoutSecrets.js"

/** How a run executes, not what it measures: these may change between sessions of one run. */
const MAY_CHANGE = {
  concurrency: "concurrency",
  max_retries: "max_retries",
  timeout: "timeout_s",
  task_app_url: "task_app_url",
  max_response_bytes: "max_response_bytes",
  cache: "cache",
  cache_dir: "cache_dir",
  max_run_cost: "max_run_cost",
  max_run_tokens: "max_run_tokens",
} as const satisfies Partial<Record<keyof PublicEvalRunConfig, keyof EvalRunConfig>>

type MayChange = keyof typeof MAY_CHANGE
const mayChange = (key: keyof PublicEvalRunConfig): key is MayChange => key in MAY_CHANGE

/**
 * The policy's model endpoint: where the model is served, not what is measured (the model's name is in
 * `model`), so it may change like the task app's URL. Given as `--inference-url` or in `[eval.policy_config]`.
 */
const INFERENCE_URL = "inference_url"

/** A value a resume was given for a key of the run's config (`config.json`'s names), or its model endpoint. */
export interface ResumeSetting {
  readonly key: keyof PublicEvalRunConfig | typeof INFERENCE_URL
  /** In `config.json`'s form: JSON values, secret-looking keys left out. */
  readonly value: unknown
  /** Where it was given, for messages: `--seeds`, `seeds in eval.toml`. */
  readonly source: string
}

const CONFIG_KEYS: ReadonlySet<string> = new Set<keyof PublicEvalRunConfig>([
  "app_id",
  "task_app_url",
  "env_name",
  "seeds",
  "attempts",
  "concurrency",
  "timeout",
  "max_retries",
  "return_trace",
  "trace_format",
  "model",
  "provider",
  "policy_name",
  "policy_config",
  "env_config",
  "ops",
  "pass_threshold",
  "cluster_by",
  "max_response_bytes",
  "cache",
  "cache_dir",
  "max_run_cost",
  "max_run_tokens",
])

/** The values of a decoded `[eval]` table (or of flags decoded like one) that bear on a run's config. */
export const resumeSettingsOf = (
  section: EvalTomlSection & { readonly inference_url?: string | undefined },
  sourceOf: (key: string) => string,
): Array<ResumeSetting> => {
  const settings: Array<ResumeSetting> = []
  for (const [name, raw] of Object.entries(section) as Array<[string, unknown]>) {
    if (raw === undefined) continue
    const key = name === "url" ? "task_app_url" : name
    if (key === INFERENCE_URL) {
      settings.push({ key, value: raw, source: sourceOf(name) })
      continue
    }
    if (!CONFIG_KEYS.has(key)) continue
    const value = key === "policy_config" || key === "env_config" ? withoutSecrets(raw as Record<string, unknown>) : raw
    // What config.json would hold: TOML dates become strings, and so on.
    const source = sourceOf(name)
    const json = JSON.parse(JSON.stringify(value))
    if (key === "policy_config" && isTable(json) && typeof json[INFERENCE_URL] === "string") {
      const { [INFERENCE_URL]: inferenceUrl, ...rest } = json
      settings.push({ key: INFERENCE_URL, value: inferenceUrl, source: `${source} (${INFERENCE_URL})` })
      settings.push({ key: "policy_config", value: rest, source })
      continue
    }
    settings.push({ key: key as keyof PublicEvalRunConfig, value: json, source })
  }
  return settings
}

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

interface Difference {
  readonly path: string
  readonly given: unknown
  readonly stored: unknown
}

/** The first key path where two values differ, or null; tables are compared key by key to name it. */
const firstDifference = (path: string, given: unknown, stored: unknown): Difference | null => {
  if (isTable(given) && isTable(stored)) {
    for (const key of new Set([...Object.keys(stored), ...Object.keys(given)])) {
      const found = firstDifference(`${path}.${key}`, given[key], stored[key])
      if (found !== null) return found
    }
    return null
  }
  return isDeepStrictEqual(given, stored) ? null : { path, given, stored }
}

const sorted = (seeds: ReadonlyArray<number>) => [...seeds].sort((a, b) => a - b)

const describeSeeds = (seeds: ReadonlyArray<number>): string => {
  const list = sorted(seeds)
  const first = list[0]
  const last = list[list.length - 1]
  const contiguous = first !== undefined && last !== undefined && last - first + 1 === list.length
  const shown = contiguous ? `${first}-${last}` : `${list.slice(0, 4).join(",")}${list.length > 4 ? ",…" : ""}`
  return `${shown} (${list.length} seed${list.length === 1 ? "" : "s"})`
}

const describe = (value: unknown): string => {
  if (value === undefined) return "nothing"
  const text = JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 59)}…` : text
}

/** How `setting` differs from the stored config, in words, or null when it asks for what the run has. */
const planChange = (stored: PublicEvalRunConfig, setting: ResumeSetting): string | null => {
  if (setting.key === "seeds") {
    const given = setting.value as ReadonlyArray<number>
    return isDeepStrictEqual(sorted(given), sorted(stored.seeds))
      ? null
      : `${setting.source} gives seeds ${describeSeeds(given)}, the run has ${describeSeeds(stored.seeds)}`
  }
  let storedValue: unknown = stored[setting.key as keyof PublicEvalRunConfig]
  if (setting.key === "policy_config" && isTable(setting.value)) {
    // The endpoint may change (see INFERENCE_URL); the model is copied into policy_config when the table has
    // none (see loadEvalConfig): neither is a difference of plan.
    const { [INFERENCE_URL]: _endpoint, ...policy } = stored.policy_config
    const { model, ...rest } = policy
    storedValue = setting.value.model === undefined && model === stored.model ? rest : policy
  }
  const difference = firstDifference(setting.key, setting.value, storedValue)
  if (difference === null) return null
  const where = difference.path === setting.key ? "" : ` (${difference.path})`
  return `${setting.source}${where} gives ${describe(difference.given)}, the run has ${describe(difference.stored)}`
}

export interface ResumeSettingsApplied {
  /** The settings that may change, as they apply to this session. */
  readonly overrides: Partial<Pick<EvalRunConfig, (typeof MAY_CHANGE)[MayChange]>>
  /** The policy's model endpoint for this session, when the resume gives another one. */
  readonly inferenceUrl: string | null
  /** One line per setting that changes how the run executes from now on. */
  readonly changes: ReadonlyArray<string>
}

/**
 * Checks what a resume was given against the run's stored config. Settings that change the plan (seeds,
 * attempts, app, model, policy and env, …) are refused, naming each: the results of two plans would be
 * mixed under one summary. Settings of how it runs (concurrency, retries, timeout, task-app URL) apply;
 * of several for one key, the last wins (flags come after the config file).
 */
export const applyResumeSettings = (
  stored: PublicEvalRunConfig,
  runDir: string,
  settings: ReadonlyArray<ResumeSetting>,
): Either.Either<ResumeSettingsApplied, ConfigError> => {
  const refused: Array<string> = []
  const latest = new Map<MayChange, ResumeSetting>()
  let endpoint: ResumeSetting | null = null
  for (const setting of settings) {
    if (setting.key === INFERENCE_URL) endpoint = setting
    else if (mayChange(setting.key)) latest.set(setting.key, setting)
    else {
      const change = planChange(stored, setting)
      if (change !== null) refused.push(change)
    }
  }
  if (refused.length > 0) {
    return Either.left(
      new ConfigError({
        reason: "InvalidValue",
        message: `cannot resume ${runDir} with a different plan: ${refused.join("; ")}. A resume finishes the plan the run started with: leave ${
          refused.length > 1 ? "these" : "it"
        } out, or start a new run (without --resume)`,
      }),
    )
  }
  const overrides: Record<string, unknown> = {}
  const changes: Array<string> = []
  for (const [key, setting] of latest) {
    if (isDeepStrictEqual(setting.value, stored[key])) continue
    overrides[MAY_CHANGE[key]] = setting.value
    changes.push(
      `${setting.source} is ${describe(setting.value)} from now on (the run started with ${describe(stored[key])})`,
    )
  }
  const storedEndpoint = stored.policy_config[INFERENCE_URL]
  const inferenceUrl = endpoint === null || endpoint.value === storedEndpoint ? null : String(endpoint.value)
  if (endpoint !== null && inferenceUrl !== null) {
    changes.push(
      `${endpoint.source} is ${describe(inferenceUrl)} from now on (the run started with ${describe(storedEndpoint)})`,
    )
  }
  return Either.right({ overrides, inferenceUrl, changes })
}
