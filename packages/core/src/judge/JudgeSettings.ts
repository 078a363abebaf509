import { Redacted, Schema } from "effect"
import { configKeyDoc as doc } from "../config/ConfigKeyDoc.js"
import { HttpUrl } from "../config/HttpUrl.js"
import { inferProvider } from "../interceptor/InferenceUrl.js"
import type { InterceptorUpstream } from "../interceptor/Interceptor.js"
import { PROVIDERS, providerBaseUrl } from "../interceptor/ModelEndpoint.js"
import { type KeyFinding, reviewTableKeys } from "../internal/reviewTableKeys.js"

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })
const PositiveInt = Schema.Int.pipe(Schema.positive({ message: () => "expected a positive integer" }))
const NonNegativeInt = Schema.Int.pipe(Schema.nonNegative({ message: () => "expected an integer ≥ 0" }))
const Finite = Schema.Number.pipe(Schema.finite({ message: () => "expected a finite number" }))
const VariableName = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: () => "expected the name of an environment variable" }),
)

/**
 * `[eval.judge]`: the model that model graders (`rubric`, `label`, `fact`, `pairwise`) ask, on an upstream of its
 * own. Its calls go through the run's interceptor like the policy's, recorded with `role = "judge"` and priced
 * apart. Stored with the run (`config.json`): a variable's name is stored, never a key.
 */
export const JudgeSettings = Schema.Struct({
  model: Schema.propertySignature(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description: "The judge's model, asked by every model grader of the eval.",
      synthAi: null,
      example: '"gpt-4o-mini"',
      defaultText: "required in `[eval.judge]`",
    }),
  ),
  provider: opt(Schema.String).annotations(
    doc({
      description:
        "A known provider (openai, anthropic, groq, …): its base URL is the judge's endpoint when no `inference_url` is given, its key variable the judge's key, its price table the judge's prices.",
      synthAi: null,
      example: '"openai"',
    }),
  ),
  inference_url: opt(HttpUrl).annotations(
    doc({
      description: "The judge's model endpoint, an OpenAI-compatible base URL (chat completions).",
      synthAi: null,
      example: '"http://127.0.0.1:8001/v1"',
    }),
  ),
  api_key_env: opt(VariableName).annotations(
    doc({
      description:
        "The environment variable holding the judge's key. Without it, the provider's own variable, sent only to that provider's endpoint. The key is never written to logs or the run directory.",
      synthAi: null,
      example: '"JUDGE_API_KEY"',
    }),
  ),
  temperature: opt(Finite).annotations(
    doc({ description: "The judge's sampling temperature.", synthAi: null, example: "0", defaultText: "0" }),
  ),
  max_tokens: opt(PositiveInt).annotations(
    doc({ description: "Most tokens per judge answer.", synthAi: null, example: "512", defaultText: "1024" }),
  ),
  samples: opt(PositiveInt).annotations(
    doc({
      description:
        "Judge answers per item and grader: the verdict is their mean, and the summary reports the judge's own variance and its share of the score's standard error.",
      synthAi: null,
      example: "3",
      defaultText: "1",
    }),
  ),
  retries: opt(NonNegativeInt).annotations(
    doc({
      description:
        "Retries (with exponential backoff) of a judge answer that does not parse or is out of range, or of a failed judge call; then the rollout's grade is a `judge` error, never a silent 0.",
      synthAi: null,
      example: "3",
      defaultText: "3",
    }),
  ),
  human_labels: opt(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description:
        "A dataset column holding human labels (a label or a score per item): the summary reports the judge's agreement with them (Cohen's kappa, Krippendorff's alpha, a confusion matrix, with bootstrap CIs).",
      synthAi: null,
      example: '"human_label"',
    }),
  ),
})
export type JudgeSettings = typeof JudgeSettings.Type

export const judgeDefaults = { temperature: 0, max_tokens: 1024, samples: 1, retries: 3 } as const

type Env = Readonly<Record<string, string | undefined>>

const nonEmpty = (value: string | undefined): string | null =>
  value === undefined || value.trim() === "" ? null : value.trim()

/**
 * The judge's upstream: `inference_url`, else its provider's base URL; its key from `api_key_env`, else from the
 * provider's variable when the endpoint is that provider's own (a provider key never goes to another server, the
 * rule `policyUpstream` keeps for the policy). Null when neither names an endpoint.
 */
export const judgeUpstream = (settings: JudgeSettings, env: Env): InterceptorUpstream | null => {
  const baseUrl =
    settings.inference_url ?? (settings.provider === undefined ? undefined : providerBaseUrl(settings.provider, env))
  if (baseUrl === undefined) return null
  const provider = settings.provider ?? inferProvider(baseUrl)
  const named = settings.api_key_env === undefined ? null : nonEmpty(env[settings.api_key_env])
  const providerVariable = provider === null ? undefined : PROVIDERS[provider]?.keyVariable
  const ownEndpoint = provider !== null && inferProvider(baseUrl) === provider
  const fromProvider = providerVariable !== undefined && ownEndpoint ? nonEmpty(env[providerVariable]) : null
  const key = named ?? fromProvider
  return { baseUrl, provider, apiKey: key === null ? null : Redacted.make(key) }
}

const JUDGE_KEYS = Object.keys(JudgeSettings.fields)

/** The keys a judge table sets that proctor does not read, each named with the key most likely meant. */
export const reviewJudgeKeys = (
  judge: unknown,
  path: ReadonlyArray<PropertyKey>,
  render: (path: ReadonlyArray<PropertyKey>) => string,
): ReadonlyArray<KeyFinding> => reviewTableKeys(judge, JUDGE_KEYS, path, render)
