import {
  BUNDLED_PRICE_TABLE,
  DEFAULT_PRICES_URL,
  ErrorKind,
  errorKindDocs,
  Pricing,
  priceTableLine,
  providerAliases,
} from "@proctor/core"
import { Effect } from "effect"
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

/** Models the reference prices as examples, looked up in the maintained table when the docs are generated. */
const EXAMPLE_MODELS: ReadonlyArray<readonly [string, string]> = [
  ["openai", "gpt-5.2"],
  ["openai", "gpt-5-mini"],
  ["openai", "gpt-4.1-mini"],
  ["openai", "gpt-4o-mini"],
  ["anthropic", "claude-opus-4-6"],
  ["anthropic", "claude-sonnet-4-5"],
  ["anthropic", "claude-haiku-4-5"],
  ["google", "gemini-2.5-pro"],
  ["google", "gemini-2.5-flash"],
  ["groq", "llama-3.3-70b-versatile"],
  ["groq", "openai/gpt-oss-120b"],
  ["openrouter", "anthropic/claude-sonnet-4.5"],
]

const pricing = await Effect.runPromise(Pricing.make())

/** The pricing reference: where prices come from, how they stay current, and how to override them. */
export const pricingReference = (): string => {
  return page({
    title: "Pricing",
    source: "packages/core/src/pricing (Pricing.ts, PriceTable.ts)",
    body: [
      "Every model call proctor traces is priced from the table of",
      "[`@pydantic/genai-prices`](https://github.com/pydantic/genai-prices), a price list kept by Pydantic and",
      "updated as providers change their prices (OpenAI, Anthropic, Google, Groq, OpenRouter,",
      "AWS Bedrock, Azure, Mistral, DeepSeek, …). A model the table lacks is reported as *unpriced*, never as $0.",
      "Names are matched case-insensitively, with provider prefixes (`openai/gpt-4o`, `groq:…`, Bedrock's",
      "`us.anthropic.…`) and dated snapshots (`gpt-4o-2024-08-06`) understood. Long-prompt tiers are billed at",
      "their base rate; Anthropic cache writes at the input rate.",
      "",
      `The table in force is named, with its date, on the summary's \`cost\` line and in \`summary.json\``,
      `(\`cost_usd.price_table\`): \`${priceTableLine(BUNDLED_PRICE_TABLE)}\` until it is updated.`,
      "",
      "## Keeping prices current",
      "",
      "The data bundled with the package is as old as the installed version. `proctor pricing update` fetches",
      `the current table (\`${DEFAULT_PRICES_URL}\`) and keeps it in`,
      "`~/.cache/proctor/prices.json` (`$XDG_CACHE_HOME/proctor/prices.json`; `PROCTOR_PRICES_FILE` or `--file`",
      "elsewhere). Every later run reads that copy, online or not; a run never fetches prices itself. `--url` (or",
      "`PROCTOR_PRICES_URL`) fetches from a mirror. A failed update leaves the kept copy as it was.",
      "",
      "```sh no-run",
      "proctor pricing update",
      "```",
      "",
      "It prints the date, how many models of how many providers the table has, and where it was kept.",
      "",
      "## Examples",
      "",
      `USD per million tokens, from ${BUNDLED_PRICE_TABLE.source} when these docs were generated.`,
      "",
      table(
        ["Provider", "Model", "Input", "Cached input", "Output"],
        EXAMPLE_MODELS.map(([provider, model]) => {
          const price = pricing.lookup(provider, model)
          return [
            provider,
            code(model),
            perMillion(price?.input),
            perMillion(price?.cached_input),
            perMillion(price?.output),
          ]
        }),
      ),
      "",
      "## Provider names",
      "",
      "A call's provider (the endpoint's, or one named in the model id) picks the table's provider. The table's",
      "own ids are understood as written (`openai`, `anthropic`, `google`, `groq`, `openrouter`, `azure`, …), and",
      "these aliases too. Any other provider (a local server, a gateway) leaves the table to find the model by",
      "its name.",
      "",
      table(
        ["Provider name", "Table's provider"],
        Object.entries(providerAliases).map(([alias, provider]) => [code(alias), provider]),
      ),
      "",
      "## Overriding prices",
      "",
      "`proctor eval --pricing prices.json` takes a JSON file of prices in USD per token, keyed by",
      '`"provider/model"` (or `"model"` for any provider), which win over the table; a file may also hold the',
      'map under `"models"` beside notes of its own. A provider the table does not know that the file prices',
      "(`local/…`, a gateway) is priced from the file alone. The [models guide](../guide/models#prices) runs one.",
      "The summary's `cost` line then names the file's prices first: `prices: 2 given prices first, then …`",
      "(`proctor eval` and `proctor eval grid`, `evaluate()`'s `pricing`, and the jobs of `proctor serve --pricing`;",
      "a cluster's job summaries, written by an API replica, name the table alone while `proctor worker --pricing`",
      "prices the calls).",
      "",
      "```json",
      '{ "openai/my-finetune": { "input": 3e-7, "output": 1.2e-6, "cached_input": 1.5e-7 }, "baseline": { "input": 1e-7, "output": 2e-7 } }',
      "```",
    ].join("\n"),
  })
}
