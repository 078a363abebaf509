import { isDeepStrictEqual } from "node:util"
import type { GridVariantSpec } from "../../grid/GridVariants.js"
import { isRecord } from "../../internal/isRecord.js"
import type { ImportedModel } from "../ImportedEval.js"
import { ImportProblem, shown } from "../ImportProblem.js"

/** promptfoo's OpenAI provider options and the policy setting each becomes; `apiKey` the key the policy sends. */
const SAMPLING: Readonly<Record<string, string>> = {
  temperature: "temperature",
  max_tokens: "max_tokens",
  max_completion_tokens: "max_completion_tokens",
  top_p: "top_p",
  seed: "seed",
  stop: "stop",
}
const CONNECTION_KEYS = new Set(["apiBaseUrl", "apiHost", "apiKey", "apiKeyEnvar"])

/** `openai:chat:<model>` and `openai:<model>`: the chat-completions providers proctor's prompt runner speaks. */
const OPENAI_CHAT = /^openai:(?:chat:)?([^:]+(?::[^:]+)*)$/
const NOT_CHAT =
  /^openai:(completion|embedding|embeddings|responses|assistant|realtime|image|moderation|transcription):/

interface ProviderModel {
  readonly model: string
  readonly inferenceUrl: string | undefined
  readonly sampling: Readonly<Record<string, unknown>>
  readonly label: string | undefined
}

/** One provider of the list: an OpenAI chat provider, whose `apiBaseUrl` (or `apiHost`) is its endpoint. */
const providerModel = (provider: unknown, path: string): ProviderModel => {
  const id = typeof provider === "string" ? provider : isRecord(provider) ? provider.id : undefined
  if (typeof id !== "string") throw new ImportProblem(path, `expected a provider id, not ${shown(provider)}`)
  const model = OPENAI_CHAT.exec(id)?.[1]
  if (model === undefined || NOT_CHAT.test(id))
    throw new ImportProblem(
      `${path}.id`,
      `${JSON.stringify(id)} is not supported: proctor's dataset runs call an OpenAI-compatible chat endpoint (openai:chat:<model>); for another, serve it that way and give --inference-url`,
    )
  const config = isRecord(provider) && provider.config !== undefined ? provider.config : {}
  if (!isRecord(config)) throw new ImportProblem(`${path}.config`, "expected a table")
  if (isRecord(provider)) {
    for (const key of Object.keys(provider)) {
      if (!["id", "config", "label"].includes(key)) throw new ImportProblem(`${path}.${key}`, "is not supported")
    }
  }
  const sampling: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(config)) {
    const setting = SAMPLING[key]
    if (setting !== undefined) sampling[setting] = value
    else if (key === "apiKey" && typeof value === "string") sampling.api_key = value
    else if (!CONNECTION_KEYS.has(key))
      throw new ImportProblem(`${path}.config.${key}`, "is not supported (proctor would not send it)")
  }
  const base = config.apiBaseUrl ?? (typeof config.apiHost === "string" ? `https://${config.apiHost}/v1` : undefined)
  if (base !== undefined && typeof base !== "string")
    throw new ImportProblem(`${path}.config.apiBaseUrl`, "expected a URL")
  const label = isRecord(provider) && typeof provider.label === "string" ? provider.label : undefined
  return { model, inferenceUrl: base, sampling, label }
}

/** A grid variant's name: a provider's label when it can name a directory, else the grid's own naming. */
const VARIANT_NAME = /^[A-Za-z0-9][A-Za-z0-9._+@-]*$/

/**
 * The model(s) a promptfoo config's `providers` names, as proctor's policy settings: one provider is the run's model;
 * several are a grid run, a variant per provider (its model and, with an `apiBaseUrl`, its endpoint), every one on
 * the same tests, ranked with `proctor compare`. Providers of a grid share their settings (temperature, key …): a
 * grid varies the model and its endpoint only. `--model` and `--inference-url` override one provider's model and
 * endpoint; `--inference-url` is the endpoint of a grid's providers without one of their own. Any other provider is
 * refused with its key.
 */
export const promptfooModel = (providers: unknown): ImportedModel => {
  const list = providers === undefined ? [] : Array.isArray(providers) ? providers : [providers]
  if (list.length === 0)
    throw new ImportProblem("providers", "no provider: name the model to run (openai:chat:<model>)")
  const models = list.map((provider, index) => providerModel(provider, `providers[${index}]`))
  const first = models[0]!
  for (const [index, other] of models.entries()) {
    if (!isDeepStrictEqual(other.sampling, first.sampling))
      throw new ImportProblem(
        `providers[${index}].config`,
        "differs from providers[0]'s settings: the providers of one run share them (a grid varies the model and its endpoint)",
      )
  }
  const endpoint = (model: ProviderModel) =>
    model.inferenceUrl === undefined ? { provider: "openai" } : { inference_url: model.inferenceUrl }
  if (models.length === 1) return { model: first.model, ...endpoint(first), sampling: first.sampling }
  const variant = (model: ProviderModel): GridVariantSpec => ({
    model: model.model,
    ...(model.inferenceUrl === undefined ? {} : { inference_url: model.inferenceUrl }),
    ...(model.label !== undefined && VARIANT_NAME.test(model.label) ? { name: model.label } : {}),
  })
  return {
    ...(models.some((model) => model.inferenceUrl !== undefined) ? {} : { provider: "openai" }),
    sampling: first.sampling,
    variants: [variant(first), ...models.slice(1).map(variant)],
  }
}
