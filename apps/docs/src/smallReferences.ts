import { builtinPrices, ErrorKind, errorKindDocs, providerAliases } from "@proctor/core"
import { exitCodeMeanings } from "proctor"
import { code, page, table, text } from "./markdown.js"

/** The error-kinds reference: every `error_kind` a result can carry, and whether it is retried. */
export const errorKindsReference = (): string =>
  page({
    title: "Error kinds",
    source: "packages/core/src/result/EvalResult.ts (ErrorKind) and ErrorKindDoc.ts",
    body: [
      'A rollout that did not produce a score is a result with `status: "error"`, an `error` message and one of',
      "these `error_kind`s. System errors are retried up to `max_retries` times with exponential backoff and",
      "jitter (honouring `Retry-After`); the last try's result is the one kept. Everything else is an answer",
      "about the task or the model that retrying cannot change, and is recorded at once. The summary counts",
      "errors by kind and keeps them out of the mean score (`metrics_including_errors` counts them as 0); a run",
      "with more than 5% errors is not valid ([exit code 1](./exit-codes)).",
      "",
      table(
        ["Kind", "Retried", "Meaning"],
        ErrorKind.literals.map((kind) => [code(kind), errorKindDocs[kind].retried, text(errorKindDocs[kind].meaning)]),
      ),
    ].join("\n"),
  })

/** The exit-codes reference. */
export const exitCodesReference = (): string =>
  page({
    title: "Exit codes",
    source: "packages/cli/src/exitCodes.ts (exitCodeMeanings)",
    body: [
      "Every `proctor` command exits with one of these; CI branches on them ([the CI guide](../guide/ci)).",
      "",
      table(
        ["Code", "Meaning"],
        Object.entries(exitCodeMeanings).map(([exit, meaning]) => [code(exit), text(meaning)]),
      ),
    ].join("\n"),
  })

/** USD per token as USD per million tokens, without float noise (1.5e-7 → 0.15). */
const perMillion = (usdPerToken: number | undefined) =>
  usdPerToken === undefined ? "" : `$${Number((usdPerToken * 1e6).toPrecision(6))}`

/** The pricing reference: the built-in price table. */
export const pricingReference = (): string =>
  page({
    title: "Pricing",
    source: "packages/core/src/pricing/internal/pricingData.ts (builtinPrices)",
    body: [
      "The cost of every model call proctor traces is priced from this table: the providers' list prices",
      "(standard tier) as published in November 2025, in USD per million tokens. `--pricing FILE` overrides or",
      "extends it. A model that is not here is reported as unpriced, never as $0. Names are matched",
      "case-insensitively, with provider prefixes (`openai/gpt-4o`) and dated snapshots (`gpt-4o-2024-08-06`)",
      "understood. Cached input is the rate for prompt tokens served from the provider's cache; where it is",
      "empty, cached tokens are billed at the input rate.",
      "",
      table(
        ["Provider", "Model", "Input", "Cached input", "Output"],
        builtinPrices.map((row) => [
          row.provider,
          row.models.map(code).join(", "),
          perMillion(row.price.input),
          perMillion(row.price.cached_input),
          perMillion(row.price.output),
        ]),
      ),
      "",
      "## Provider names",
      "",
      "A call's provider picks the rows searched; these names are understood. Any other provider (openrouter,",
      "together, bedrock, …) resells several vendors' models, so every row is searched.",
      "",
      table(
        ["Provider name", "Rows"],
        Object.entries(providerAliases).map(([alias, provider]) => [code(alias), provider]),
      ),
      "",
      "## Overriding prices",
      "",
      "`proctor eval --pricing prices.json` takes a JSON file of prices in USD per token, keyed by",
      '`"provider/model"` (or `"model"` for any provider), which win over the table; a file may also hold the',
      'map under `"models"` beside notes of its own. The [models guide](../guide/models#prices) runs one.',
      "",
      "```json",
      '{ "openai/my-finetune": { "input": 3e-7, "output": 1.2e-6, "cached_input": 1.5e-7 }, "baseline": { "input": 1e-7, "output": 2e-7 } }',
      "```",
    ].join("\n"),
  })
