import { Effect } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import type { EvalTomlSection } from "../config/EvalRunConfig.js"
import type { ImportedEval } from "./ImportedEval.js"
import { importConfigError } from "./ImportProblem.js"
import { readOpenAiEval } from "./openaiEvals/readOpenAiEval.js"
import { readPromptfooConfig } from "./promptfoo/readPromptfooConfig.js"

/** The keys that say a run imports another tool's eval (flags `--from-promptfoo`, `--from-openai-evals`, `--data`). */
export interface ImportKeys {
  readonly from_promptfoo?: string | undefined
  readonly from_openai_evals?: string | undefined
  readonly data?: string | undefined
}

/** Stands where a task app's URL would in an imported run's config: `promptfoo:` or `openai-evals:` and the file. */
export const importedUrlOf = (keys: ImportKeys): string | null =>
  keys.from_promptfoo !== undefined
    ? `promptfoo:${keys.from_promptfoo}`
    : keys.from_openai_evals !== undefined
      ? `openai-evals:${keys.from_openai_evals}`
      : null

/** The eval a config imports, read and mapped (each problem one line naming its key); null when it imports none. */
export const readImportedEval = (keys: ImportKeys): Effect.Effect<ImportedEval | null, ConfigError> => {
  const { from_promptfoo: promptfoo, from_openai_evals: openai, data } = keys
  if (promptfoo !== undefined && openai !== undefined) {
    return new ConfigError({ reason: "InvalidValue", message: "--from-promptfoo and --from-openai-evals: give one" })
  }
  if (data !== undefined && openai === undefined) {
    return new ConfigError({ reason: "InvalidValue", message: "--data: it gives the items of --from-openai-evals" })
  }
  if (promptfoo !== undefined) {
    return Effect.try({ try: () => readPromptfooConfig(promptfoo), catch: importConfigError(promptfoo) })
  }
  if (openai !== undefined) {
    if (data === undefined) {
      return new ConfigError({
        reason: "Missing",
        message: "--from-openai-evals: give its items with --data FILE.jsonl",
      })
    }
    return Effect.try({ try: () => readOpenAiEval(openai, data), catch: importConfigError(openai) })
  }
  return Effect.succeed(null)
}

/**
 * The settings an imported eval gives a run, under the eval TOML's and the flags': its name, its model and endpoint,
 * its sampling settings and one seed per row.
 */
export const importedSettings = Effect.fn("Import.settings")(function* (keys: ImportKeys) {
  const imported = yield* readImportedEval(keys)
  if (imported === null) return null
  const { model, inference_url, provider, sampling, variants } = imported.model
  return {
    url: importedUrlOf(keys) ?? "",
    section: {
      app_id: imported.name.replace(/[^\w.-]+/g, "-"),
      seeds: imported.rows.map((_, index) => index),
      ...(model === undefined ? {} : { model }),
      ...(variants === undefined ? {} : { variants }),
      policy_config: <EvalTomlSection["policy_config"] & object>{
        ...sampling,
        ...(inference_url === undefined ? {} : { inference_url }),
        ...(provider === undefined ? {} : { provider }),
      },
    },
  }
})
