import { ConfigError } from "../config/ConfigError.js"

interface Provider {
  /** An OpenAI-compatible base URL (chat completions at `{baseUrl}/chat/completions`). */
  readonly baseUrl: string
  /** Where the provider's own SDKs look for its key. */
  readonly keyVariable: string
}

/** Model providers `--provider` knows: where their OpenAI-compatible API lives and which variable holds a key. */
export const PROVIDERS: Readonly<Record<string, Provider>> = {
  openai: { baseUrl: "https://api.openai.com/v1", keyVariable: "OPENAI_API_KEY" },
  anthropic: { baseUrl: "https://api.anthropic.com/v1", keyVariable: "ANTHROPIC_API_KEY" },
  groq: { baseUrl: "https://api.groq.com/openai/v1", keyVariable: "GROQ_API_KEY" },
  // Google's base does not end in /v1, so it is named by its chat endpoint, which every client keeps as is.
  google: {
    baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions",
    keyVariable: "GEMINI_API_KEY",
  },
  openrouter: { baseUrl: "https://openrouter.ai/api/v1", keyVariable: "OPENROUTER_API_KEY" },
  together: { baseUrl: "https://api.together.xyz/v1", keyVariable: "TOGETHER_API_KEY" },
  fireworks: { baseUrl: "https://api.fireworks.ai/inference/v1", keyVariable: "FIREWORKS_API_KEY" },
  mistral: { baseUrl: "https://api.mistral.ai/v1", keyVariable: "MISTRAL_API_KEY" },
  deepseek: { baseUrl: "https://api.deepseek.com/v1", keyVariable: "DEEPSEEK_API_KEY" },
  xai: { baseUrl: "https://api.x.ai/v1", keyVariable: "XAI_API_KEY" },
  cerebras: { baseUrl: "https://api.cerebras.ai/v1", keyVariable: "CEREBRAS_API_KEY" },
}

export const knownProviders = (): string => Object.keys(PROVIDERS).join(", ")

type Env = Readonly<Record<string, string | undefined>>

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === "" ? undefined : value.trim()

/** A provider's base URL; `OPENAI_BASE_URL` stands in for OpenAI's, as it does for OpenAI's own SDKs. */
export const providerBaseUrl = (provider: string, env: Env): string | undefined =>
  provider === "openai" ? (nonEmpty(env.OPENAI_BASE_URL) ?? PROVIDERS.openai?.baseUrl) : PROVIDERS[provider]?.baseUrl

export interface EndpointSources {
  readonly flagUrl?: string | undefined
  readonly flagProvider?: string | undefined
  /** `[eval.policy_config] inference_url`. */
  readonly fileUrl?: string | undefined
  /** `[eval] provider`. */
  readonly fileProvider?: string | undefined
  readonly env: Env
}

export interface ModelEndpoint {
  readonly inferenceUrl: string
  /** The provider, when named or implied (`OPENAI_BASE_URL` implies OpenAI's conventions, key included). */
  readonly provider: string | null
}

/**
 * Where the policy's model is. A flag beats the file and, within each, a URL beats a provider's base URL:
 * `--inference-url`, `--provider`, `[eval.policy_config] inference_url`, `[eval] provider`, then
 * `OPENAI_BASE_URL`. Null when none of them names an endpoint (a provider proctor does not know names none).
 */
export const resolveModelEndpoint = (sources: EndpointSources): ModelEndpoint | null => {
  const named = sources.flagProvider ?? sources.fileProvider ?? null
  const ofProvider = (provider: string | undefined) =>
    provider === undefined ? undefined : providerBaseUrl(provider, sources.env)
  const inferenceUrl =
    sources.flagUrl ?? ofProvider(sources.flagProvider) ?? sources.fileUrl ?? ofProvider(sources.fileProvider)
  if (inferenceUrl !== undefined) return { inferenceUrl, provider: named }
  const fromEnv = nonEmpty(sources.env.OPENAI_BASE_URL)
  return fromEnv === undefined ? null : { inferenceUrl: fromEnv, provider: named ?? "openai" }
}

/** The error of a direct run that cannot reach any model: said before the first rollout, not by each one. */
export const noModelEndpoint = () =>
  new ConfigError({
    reason: "Missing",
    message: [
      "no model endpoint: the task app would have no inference_url to call. Give one of",
      "  --inference-url URL                  an OpenAI-compatible base URL, e.g. http://127.0.0.1:8001/v1",
      `  --provider NAME                      ${knownProviders()}`,
      "  inference_url in [eval.policy_config] of the config file",
      "  OPENAI_BASE_URL                      in the environment",
      "or --no-intercept when the task app chooses its model itself.",
    ].join("\n"),
  })
