import { type EvalFlags, integerFlag, numberFlag, repeatableFlag, scoreFlag, secondsFlag } from "@proctor/core"
import { choice, configValues, type FlagTable, type FlagValues, parsed, text, toggle } from "./flagTable.js"
import { gridFlagSettings } from "./gridFlags.js"

const positiveInteger = integerFlag({ min: 1 })

/** `proctor eval`'s flags; those with a `configKey` set that key of the run's config, over the config file. */
export const evalFlags = {
  config: text("--config <path>", "eval TOML ([eval] table, synth-ai schema)"),
  url: text("--url <url>", "task app base URL", { configKey: "url" }),
  seeds: text("--seeds <seeds>", 'seeds: "0,1,2", "0-99" or a mix', { configKey: "seeds" }),
  model: parsed(
    "--model <model>",
    "model name passed to the policy; repeat it for a grid run (every model on the same seeds)",
    repeatableFlag,
    { configKey: "model" },
  ),
  inferenceUrl: text(
    "--inference-url <url>",
    "the policy's model endpoint (OpenAI-compatible base URL). First found wins: --inference-url, --provider, " +
      "[eval.policy_config] inference_url, [eval] provider, OPENAI_BASE_URL",
    { configKey: "inference_url" },
  ),
  provider: text(
    "--provider <name>",
    "use this provider's base URL: openai (honours OPENAI_BASE_URL), anthropic, groq, …",
    { configKey: "provider" },
  ),
  strict: toggle("--strict", "unknown config keys are errors, not warnings (also: strict = true)", {
    configKey: "strict",
  }),
  envFile: text("--env-file <path>", "dotenv file (ENVIRONMENT_API_KEY, model keys)"),
  concurrency: parsed("--concurrency <n>", "rollouts in flight at once", positiveInteger, {
    configKey: "concurrency",
  }),
  returnTrace: toggle("--return-trace", "ask task apps for traces", { configKey: "return_trace" }),
  tracesDir: text("--traces-dir <dir>", "write seed_{seed}_trace.json files here", { configKey: "traces_dir" }),
  output: text("--output <path>", "write results JSON here (same as --output-json)"),
  outputTxt: text("--output-txt <path>", "write the config and results table here"),
  outputJson: text("--output-json <path>", "write config, results and summary JSON here"),
  attempts: parsed("--attempts <n>", "attempts per seed (pass@k when > 1)", positiveInteger, {
    configKey: "attempts",
  }),
  maxRetries: parsed("--max-retries <n>", "retries per rollout for system errors", integerFlag({ min: 0 }), {
    configKey: "max_retries",
  }),
  timeout: parsed("--timeout <seconds>", "deadline of one rollout", secondsFlag, { configKey: "timeout" }),
  runDir: text("--run-dir <dir>", "run directory (default runs/{run_id})"),
  resume: text("--resume <run_dir>", "run only the rollouts missing from a run directory"),
  retryErrors: toggle(
    "--retry-errors",
    "with --resume: run the errored rollouts again (the journal keeps the earlier tries)",
  ),
  repair: toggle(
    "--repair",
    "with --resume: back up the journal, then drop every line that is not a result of the run",
  ),
  failUnder: parsed("--fail-under <score>", "exit 1 when the mean score is below this score (0 to 1)", scoreFlag),
  json: toggle("--json", "print the summary as JSON instead of the table"),
  table: choice("--table <rows>", "terminal table: failures and first/last rows, or every row", ["compact", "full"]),
  intercept: toggle(
    "--no-intercept",
    "let the task app call the model directly (no tokens, cost or traces from proctor)",
  ),
  pricing: text("--pricing <file>", "JSON prices (USD per token) that override or extend the maintained table"),
  otlpEndpoint: text(
    "--otlp-endpoint <url>",
    "export spans over OTLP/HTTP to the collector at this base URL (default OTEL_EXPORTER_OTLP_ENDPOINT)",
  ),
  modelRateLimit: parsed(
    "--model-rate-limit <spec>",
    "limit calls to a model: <base URL>=<N>rpm[,<N>tpm], repeatable (default PROCTOR_MODEL_RATE_LIMITS)",
    repeatableFlag,
  ),
  maxResponseBytes: parsed(
    "--max-response-bytes <n>",
    "refuse task-app answers longer than this (default 16 MiB)",
    positiveInteger,
    { configKey: "max_response_bytes" },
  ),
  // dataset evals and graders
  dataset: text("--dataset <file>", "a JSONL or CSV file whose rows are the tasks (in place of --url)", {
    configKey: "dataset",
  }),
  prompt: parsed(
    "--prompt <template>",
    "a dataset eval's user message: a Liquid template, {{ item.question }}; repeat it for a grid run",
    repeatableFlag,
    { configKey: "prompt" },
  ),
  system: text("--system <template>", "a dataset eval's system message, a template like --prompt", {
    configKey: "system",
  }),
  tools: text("--tools <file>", "a dataset eval's tools: a JSON file of function tools, offered to the model", {
    configKey: "tools",
  }),
  grader: parsed(
    "--grader <spec>",
    'grade each answer: a type (equals) or an inline TOML table ({ type = "numeric", tolerance = 0.01 }); repeatable',
    repeatableFlag,
    { configKey: "graders" },
  ),
  judge: text(
    "--judge <table>",
    'the judge of model graders, as [eval.judge] in an inline TOML table ({ model = "gpt-4o-mini", provider = "openai" })',
    { configKey: "judge" },
  ),
  // evals written for other tools (packages/core/src/import)
  fromPromptfoo: text(
    "--from-promptfoo <file>",
    "run a promptfoo config (promptfooconfig.yaml) as a dataset eval, its assertions graded by proctor",
    { configKey: "from_promptfoo" },
  ),
  fromOpenaiEvals: text(
    "--from-openai-evals <file>",
    "run an OpenAI Evals definition (JSON) on the items of --data, its testing criteria graded by proctor",
    { configKey: "from_openai_evals" },
  ),
  data: text("--data <file>", "the JSONL items of --from-openai-evals", { configKey: "data" }),
  // agent runs (Harbor-format tasks in sandboxes)
  tasks: text("--tasks <dir>", "a directory of Harbor-format tasks (or one task): seeds are the tasks, in name order", {
    configKey: "tasks",
  }),
  agent: text(
    "--agent <name>",
    "the agent that carries out --tasks: oracle (solution/solve.sh) or builtin (on --model)",
    { configKey: "agent" },
  ),
  sandbox: text(
    "--sandbox <runtime>",
    "where each rollout's sandbox runs: docker (default), bwrap, local (no isolation)",
    { configKey: "sandbox" },
  ),
  maxTurns: parsed("--max-turns <n>", "most model turns of an agent's rollout (default 100)", positiveInteger, {
    configKey: "max_turns",
  }),
  maxTokens: parsed("--max-tokens <n>", "most tokens one rollout's model calls may use", positiveInteger, {
    configKey: "max_tokens",
  }),
  maxCost: parsed(
    "--max-cost <usd>",
    "most USD one rollout's model calls may cost",
    numberFlag({ unit: "USD", positive: true }),
    { configKey: "max_cost" },
  ),
  cache: toggle("--cache", "answer requests identical to earlier ones from the response cache (off by default)", {
    configKey: "cache",
  }),
  cacheDir: text("--cache-dir <dir>", "the response cache's directory (default ~/.cache/proctor/responses)", {
    configKey: "cache_dir",
  }),
  maxRunCost: parsed(
    "--max-run-cost <usd>",
    "stop starting rollouts once this session's model calls would spend this much",
    numberFlag({ unit: "USD", positive: true }),
    { configKey: "max_run_cost" },
  ),
  maxRunTokens: parsed(
    "--max-run-tokens <n>",
    "stop starting rollouts once this session's model calls would use this many tokens",
    positiveInteger,
    { configKey: "max_run_tokens" },
  ),
  agentTimeout: parsed(
    "--agent-timeout <seconds>",
    "the agent's working time per rollout (a task's [agent] timeout_sec wins)",
    secondsFlag,
    { configKey: "agent_timeout" },
  ),
  verifierTimeout: parsed(
    "--verifier-timeout <seconds>",
    "the tests' time per rollout (a task's [verifier] timeout_sec wins)",
    secondsFlag,
    { configKey: "verifier_timeout" },
  ),
  view: toggle("--view", "serve the viewer of this run on loopback as it goes (URL on stderr; it stays until Ctrl-C)"),
  // job server mode (src/backend): run this eval as a job on a proctor or synth-ai job server
  backend: text("--backend <url>", "run on this job server (or PROCTOR_BACKEND_URL; key from PROCTOR_API_KEY)"),
  // Past a day the grace timer would overflow Node's 2³¹ ms soon after, and fire at once.
  graceSeconds: parsed(
    "--grace-seconds <s>",
    "how long in-flight rollouts may finish after Ctrl-C",
    numberFlag({ unit: "seconds", min: 0, max: 86_400 }),
    { default: 10 },
  ),
} satisfies FlagTable

/** What `proctor eval` is given: its flags' values and the task app's id (APP_ID). */
export type EvalOptions = FlagValues<typeof evalFlags> & { readonly appId?: string | undefined }

/** The settings the flags give, as config keys (see loadEvalConfig.ts). */
export const evalFlagSettings = (options: EvalOptions): EvalFlags => {
  const { model: _model, prompt: _prompt, ...values } = configValues(evalFlags, options)
  return {
    ...values,
    ...gridFlagSettings(options.model, options.prompt),
    ...(options.appId === undefined ? {} : { app_id: options.appId }),
  } as EvalFlags
}
