import { Redacted } from "effect"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { inferProvider } from "./InferenceUrl.js"
import type { InterceptorUpstream } from "./Interceptor.js"
import { PROVIDERS } from "./ModelEndpoint.js"

type Env = Readonly<Record<string, string | undefined>>
type PolicySettings = Pick<EvalRunConfig, "provider" | "policy_config">

/** Where the model key comes from: the policy's own key, proctor's variable, or a provider's usual variable. */
export type UpstreamKeySource = "policy_config.api_key" | "PROCTOR_UPSTREAM_API_KEY" | (string & {})

interface KeyChoice {
  readonly source: UpstreamKeySource | null
  readonly key: string | null
  /** Why this source, or why none: words for the user, never the key. */
  readonly why: string
}

const nonEmpty = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null)

const where = (baseUrl: string): string => {
  try {
    return new URL(baseUrl).host
  } catch {
    return baseUrl
  }
}

const TO_SEND_ONE = "set PROCTOR_UPSTREAM_API_KEY or policy_config.api_key to send one"

/**
 * The one rule for the key proctor sends the policy's model: the policy's `api_key`, else
 * `PROCTOR_UPSTREAM_API_KEY`, else the variable of the provider that is named (`provider`) or whose own API
 * host the URL is (api.openai.com → `OPENAI_API_KEY`). A provider's variable never goes to any other
 * endpoint: `OPENAI_API_KEY` is a real OpenAI key, and sending it to a loopback or unknown server would hand
 * it to whoever runs that server. A key meant for such a server is given explicitly, by one of the first two.
 */
const chooseKey = (settings: PolicySettings, baseUrl: string, env: Env): KeyChoice => {
  const configured = nonEmpty(settings.policy_config.api_key)
  if (configured !== null) return { source: "policy_config.api_key", key: configured, why: "set in the policy" }
  const proctors = nonEmpty(env.PROCTOR_UPSTREAM_API_KEY)
  if (proctors !== null) {
    return { source: "PROCTOR_UPSTREAM_API_KEY", key: proctors, why: "sent to whatever inference_url is configured" }
  }
  const named = settings.provider
  const provider = named ?? inferProvider(baseUrl)
  const variable = provider === null ? undefined : PROVIDERS[provider]?.keyVariable
  const because = named !== null ? `provider ${named}` : `${where(baseUrl)} is provider ${provider}'s endpoint`
  if (variable !== undefined) {
    const fromProvider = nonEmpty(env[variable])
    return fromProvider !== null
      ? { source: variable, key: fromProvider, why: because }
      : { source: null, key: null, why: `${variable} (${because}) is not set; or ${TO_SEND_ONE}` }
  }
  if (provider !== null)
    return { source: null, key: null, why: `provider ${provider} has no known key variable; ${TO_SEND_ONE}` }
  const unused = Object.values(PROVIDERS)
    .map((p) => p.keyVariable)
    .filter((name) => nonEmpty(env[name]) !== null)
  const notSent =
    unused.length === 0
      ? ""
      : unused.length === 1
        ? ` (${unused[0]} is set but is sent only to its provider's endpoint)`
        : ` (${unused.join(", ")} are set but are sent only to their providers' endpoints)`
  return {
    source: null,
    key: null,
    why: `${where(baseUrl)} is not a known provider's endpoint${notSent}; ${TO_SEND_ONE}`,
  }
}

const inferenceUrlOf = (settings: PolicySettings): string | null => {
  const baseUrl = settings.policy_config.inference_url
  return typeof baseUrl === "string" && URL.canParse(baseUrl) ? baseUrl : null
}

/**
 * The real model behind a policy: its configured `inference_url`, and the key proctor sends it (see
 * `chooseKey`). Null when the policy names no `inference_url`: the task app then calls a model of its own
 * choosing and there is nothing to route.
 */
export const policyUpstream = (config: PolicySettings, env: Env): InterceptorUpstream | null => {
  const baseUrl = inferenceUrlOf(config)
  if (baseUrl === null) return null
  const provider = config.provider ?? inferProvider(baseUrl)
  const { key } = chooseKey(config, baseUrl, env)
  return { baseUrl, provider, apiKey: key === null ? null : Redacted.make(key) }
}

export interface UpstreamKeyDescription {
  /** The model's `inference_url`; null when the policy names none. */
  readonly endpoint: string | null
  /** Where the model key comes from; null when proctor sends none. */
  readonly source: UpstreamKeySource | null
  /** Which key goes to the model and why, for the first lines of a run; never the key itself. */
  readonly text: string
}

/**
 * Which key, if any, goes to the policy's model, from where and why — the words for the user of the rule
 * `policyUpstream` applies. `traced` is whether proctor's interceptor makes the model calls; when it does
 * not, the task app calls the model itself and proctor sends no key (a policy `api_key` still reaches the
 * task app inside each rollout's policy config, as synth-ai passes it).
 */
export const describeUpstreamKey = (
  settings: PolicySettings,
  env: Env,
  options: { readonly traced: boolean },
): UpstreamKeyDescription => {
  const endpoint = inferenceUrlOf(settings)
  if (!options.traced || endpoint === null) {
    const passed = nonEmpty(settings.policy_config.api_key) !== null
    return {
      endpoint,
      source: passed ? "policy_config.api_key" : null,
      text: passed
        ? "called by the task app itself, not traced; proctor sends no model key, the task app gets policy_config.api_key in each rollout's policy config"
        : "called by the task app itself, not traced; proctor sends no model key",
    }
  }
  const choice = chooseKey(settings, endpoint, env)
  return {
    endpoint,
    source: choice.source,
    text: choice.source === null ? `no key: ${choice.why}` : `key from ${choice.source} (${choice.why})`,
  }
}

/**
 * The line a run starts with: the model, whether proctor's interceptor (at `interceptorUrl`) sits in front
 * of it, and which key goes to it from where.
 */
export const modelKeyLine = (settings: PolicySettings, env: Env, interceptorUrl: string | null): string => {
  const { endpoint, text } = describeUpstreamKey(settings, env, { traced: interceptorUrl !== null })
  const via = interceptorUrl === null ? "" : ` (calls traced through ${interceptorUrl})`
  return `model ${endpoint ?? "of the task app's choosing"}${via} — ${text}`
}
