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

/**
 * The model a promptfoo config's `providers` names, as proctor's policy settings. proctor runs one model per run, so
 * one provider; an OpenAI chat provider, whose `apiBaseUrl` (or `apiHost`) is the inference URL. `--model` and
 * `--inference-url` override both; any other provider is refused with its key.
 */
export const promptfooModel = (providers: unknown): ImportedModel => {
  const list = providers === undefined ? [] : Array.isArray(providers) ? providers : [providers]
  if (list.length === 0)
    throw new ImportProblem("providers", "no provider: name the model to run (openai:chat:<model>)")
  if (list.length > 1)
    throw new ImportProblem(
      "providers[1]",
      `${list.length} providers: proctor runs one model per run; keep one (or run once per provider with --model)`,
    )
  const provider = list[0]
  const id = typeof provider === "string" ? provider : isRecord(provider) ? provider.id : undefined
  if (typeof id !== "string") throw new ImportProblem("providers[0]", `expected a provider id, not ${shown(provider)}`)
  const model = OPENAI_CHAT.exec(id)?.[1]
  if (model === undefined || NOT_CHAT.test(id))
    throw new ImportProblem(
      "providers[0].id",
      `${JSON.stringify(id)} is not supported: proctor's dataset runs call an OpenAI-compatible chat endpoint (openai:chat:<model>); for another, serve it that way and give --inference-url`,
    )
  const config = isRecord(provider) && provider.config !== undefined ? provider.config : {}
  if (!isRecord(config)) throw new ImportProblem("providers[0].config", "expected a table")
  if (isRecord(provider)) {
    for (const key of Object.keys(provider)) {
      if (!["id", "config", "label"].includes(key)) throw new ImportProblem(`providers[0].${key}`, "is not supported")
    }
  }
  const sampling: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(config)) {
    const setting = SAMPLING[key]
    if (setting !== undefined) sampling[setting] = value
    else if (key === "apiKey" && typeof value === "string") sampling.api_key = value
    else if (!CONNECTION_KEYS.has(key))
      throw new ImportProblem(`providers[0].config.${key}`, "is not supported (proctor would not send it)")
  }
  const base = config.apiBaseUrl ?? (typeof config.apiHost === "string" ? `https://${config.apiHost}/v1` : undefined)
  if (base !== undefined && typeof base !== "string")
    throw new ImportProblem("providers[0].config.apiBaseUrl", "expected a URL")
  return {
    model,
    ...(base === undefined ? { provider: "openai" } : { inference_url: base }),
    sampling,
  }
}
