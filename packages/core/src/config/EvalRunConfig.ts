import { Either, ParseResult, Schema } from "effect"
import { GraderSpec, GraderSpecs } from "../grader/GraderSpec.js"
import { GridVariantSpec, GridVariantSpecs } from "../grid/GridVariants.js"
import { JudgeSettings } from "../judge/JudgeSettings.js"
import { Seeds } from "../plan/Seeds.js"
import { TraceFormat } from "../taskApp/TaskAppWire.js"
import { configKeyDoc as doc } from "./ConfigKeyDoc.js"
import { HttpUrl } from "./HttpUrl.js"
import { withoutSecrets } from "./withoutSecrets.js"

const PositiveInt = Schema.Int.pipe(Schema.positive({ message: () => "expected a positive integer" }))
const NonNegativeInt = Schema.Int.pipe(Schema.nonNegative({ message: () => "expected an integer ≥ 0" }))
const Finite = Schema.Number.pipe(Schema.finite({ message: () => "expected a finite number" }))
/** An integer from 1 to `max`: larger values would exhaust memory or mean nothing (`max` says why). */
const IntUpTo = (max: number, why: string) =>
  PositiveInt.pipe(Schema.lessThanOrEqualTo(max, { message: () => `expected a positive integer ≤ ${max} (${why})` }))
const Table = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  message: () => "expected a table",
})
const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/** A command-line agent the user declares (`agent_config`): see `DeclaredAgent`. */
export const DeclaredAgentConfig = Schema.Struct({
  run: Schema.NonEmptyTrimmedString,
  install: opt(Schema.NonEmptyTrimmedString),
  env: opt(Schema.Record({ key: Schema.String, value: Schema.String })),
  paths: opt(Schema.Array(Schema.NonEmptyTrimmedString)),
})
export type DeclaredAgentConfig = typeof DeclaredAgentConfig.Type

/**
 * The most rollouts (seeds × attempts) one run may plan: its plan and journal index are held in memory.
 * 10 million is well past any eval we know of and still fits in a few hundred MB.
 */
export const MAX_ROLLOUTS = 10_000_000
/** Timers overflow past 2³¹ ms (24.8 days); a week is already far beyond any rollout. */
export const MAX_TIMEOUT_S = 7 * 24 * 60 * 60
/** More in flight than this exhausts sockets and file descriptors before it helps. */
export const MAX_CONCURRENCY = 10_000
/** Retries back off exponentially: past this many a rollout would wait for ever. */
export const MAX_RETRIES = 100

const TimeoutSeconds = Schema.Number.pipe(
  Schema.filter((n) => Number.isFinite(n) && n > 0 && n <= MAX_TIMEOUT_S, {
    message: () => `expected a finite number of seconds > 0 and ≤ ${MAX_TIMEOUT_S} (a week)`,
    jsonSchema: { exclusiveMinimum: 0, maximum: MAX_TIMEOUT_S },
  }),
)

/**
 * synth-ai's policy table. The keys proctor or the usual policies read are type-checked; any other key is
 * passed through to the task app as given (policies take arbitrary settings).
 */
const PolicyConfig = Schema.Struct(
  {
    inference_url: opt(HttpUrl).annotations(
      doc({
        description:
          "The policy's model endpoint, an OpenAI-compatible base URL. proctor's interceptor forwards each rollout's model calls here; without interception the task app calls it itself.",
        synthAi: "inference_url",
        example: '"https://api.openai.com/v1"',
        flag: "--inference-url",
      }),
    ),
    model: opt(Schema.String).annotations(
      doc({
        description: "The model the policy asks for; `[eval]` `model` is copied here when this is absent.",
        synthAi: "model",
        example: '"gpt-4o-mini"',
        flag: "--model",
      }),
    ),
    provider: opt(Schema.String).annotations(
      doc({
        description:
          "A known provider (openai, anthropic, groq, google, …) whose base URL is used when no `inference_url` is given; also picks the model key's variable and the price table's rows.",
        synthAi: "provider",
        example: '"openai"',
      }),
    ),
    api_key: opt(Schema.String).annotations(
      doc({
        description:
          "The model key the interceptor sends upstream (else `PROCTOR_UPSTREAM_API_KEY` or the provider's variable). Never sent to the task app, never written to the run directory.",
        synthAi: "api_key",
        example: '"sk-…"',
      }),
    ),
    temperature: opt(Finite).annotations(
      doc({
        description: "Sampling temperature, passed to the policy as given.",
        synthAi: "temperature",
        example: "0",
      }),
    ),
    top_p: opt(Finite).annotations(
      doc({ description: "Nucleus sampling, passed to the policy as given.", synthAi: "top_p", example: "0.95" }),
    ),
    max_tokens: opt(PositiveInt).annotations(
      doc({ description: "Most tokens per completion (older APIs' name).", synthAi: "max_tokens", example: "1024" }),
    ),
    max_completion_tokens: opt(PositiveInt).annotations(
      doc({
        description: "Most tokens per completion, passed to the policy as given.",
        synthAi: "max_completion_tokens",
        example: "1024",
      }),
    ),
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown }),
).annotations({ message: () => "expected a table" })

/**
 * The `[eval]` table of a synth-ai eval TOML, plus proctor's own keys. Every key is optional here;
 * required ones are checked after the config file, the flags and the environment are merged. Keys proctor
 * does not know are warned about, not refused, so synth-ai configs keep working (see reviewConfigKeys).
 */
export const EvalTomlSection = Schema.Struct({
  app_id: opt(Schema.String).annotations(
    doc({
      description: "The task app's id: names the run (`{app_id}-…` run ids) and is sent as the rollout's app id.",
      synthAi: "app_id",
      example: '"math"',
      flag: "APP_ID",
    }),
  ),
  url: opt(HttpUrl).annotations(
    doc({
      description: "The task app's base URL. Required (as `url` or `task_app_url`).",
      synthAi: "url",
      example: '"http://127.0.0.1:8000"',
      flag: "--url",
    }),
  ),
  task_app_url: opt(HttpUrl).annotations(
    doc({
      description: "Another name for `url`; `url` wins when both are set.",
      synthAi: "task_app_url",
      example: '"http://127.0.0.1:8000"',
    }),
  ),
  task_app_api_key: opt(Schema.String).annotations(
    doc({
      description:
        "The key proctor sends the task app (`X-API-Key`, `Authorization: Bearer`, `X-API-Keys`). Never written to the run directory.",
      synthAi: "task_app_api_key",
      example: '"dev"',
      defaultText: "`ENVIRONMENT_API_KEY`",
    }),
  ),
  env_name: opt(Schema.String).annotations(
    doc({ description: "The environment's name, sent as `env.env_name`.", synthAi: "env_name", example: '"math"' }),
  ),
  seeds: opt(Seeds).annotations(
    doc({
      description:
        'The seeds to run: a list of integers, strings holding integers and inclusive ranges ("0-99", "1,5,10-12"), or one such string. Required.',
      synthAi: "seeds",
      example: '["0-49", 100]',
      flag: "--seeds",
    }),
  ),
  concurrency: opt(IntUpTo(MAX_CONCURRENCY, "more only exhausts sockets")).annotations(
    doc({
      description: "Rollouts in flight at once.",
      synthAi: "concurrency",
      example: "16",
      flag: "--concurrency",
    }),
  ),
  return_trace: opt(Schema.Boolean).annotations(
    doc({
      description: "Ask the task app for each rollout's trace (`record.return_trace`).",
      synthAi: "return_trace",
      example: "true",
      flag: "--return-trace",
      defaultText: "false, or true when `traces_dir` is set",
    }),
  ),
  trace_format: opt(TraceFormat).annotations(
    doc({
      description: "The trace form asked of the task app (`record.trace_format`).",
      synthAi: "trace_format",
      example: '"full"',
    }),
  ),
  model: opt(Schema.String).annotations(
    doc({
      description: "The model the policy uses; copied into `policy_config.model` when that is absent.",
      synthAi: "model",
      example: '"gpt-4o-mini"',
      flag: "--model",
    }),
  ),
  provider: opt(Schema.String).annotations(
    doc({
      description:
        "A known provider (openai, anthropic, groq, google, openrouter, together, fireworks, mistral, deepseek, xai, cerebras): its base URL is the model endpoint when no `inference_url` is given.",
      synthAi: "provider",
      example: '"openai"',
      flag: "--provider",
    }),
  ),
  timeout: opt(TimeoutSeconds).annotations(
    doc({
      description: "Seconds one rollout may take; past it the rollout is an error of kind `timeout` (retried).",
      synthAi: "timeout",
      example: "120",
      flag: "--timeout",
    }),
  ),
  policy_name: opt(Schema.String).annotations(
    doc({
      description: "The policy's name, sent as `policy.policy_name`.",
      synthAi: "policy_name",
      example: '"react"',
    }),
  ),
  policy_config: opt(PolicyConfig).annotations(
    doc({
      description:
        "The policy's settings, sent to the task app as `policy.config`; the keys below are checked, any other is passed through as given (secret-looking ones are kept out of the run directory).",
      synthAi: "policy_config",
      example: '{ inference_url = "http://127.0.0.1:8001/v1", temperature = 0 }',
    }),
  ),
  env_config: opt(Table).annotations(
    doc({
      description:
        "The environment's settings, sent as `env.config` (secret-looking keys are kept out of the run directory).",
      synthAi: "env_config",
      example: '{ difficulty = "hard" }',
    }),
  ),
  ops: opt(Schema.Array(Schema.Unknown)).annotations(
    doc({
      description: "synth-ai's rollout ops, sent as `ops` only when set.",
      synthAi: "ops",
      example: '["agent", "env"]',
    }),
  ),
  // proctor's additions
  attempts: opt(IntUpTo(MAX_ROLLOUTS, "the most rollouts a run may plan")).annotations(
    doc({
      description:
        "Rollouts per seed (nanoeval's `n_tries`). With more than one, the summary has pass@k and clusters the error bar by seed.",
      synthAi: null,
      example: "4",
      flag: "--attempts",
    }),
  ),
  max_retries: opt(
    NonNegativeInt.pipe(
      Schema.lessThanOrEqualTo(MAX_RETRIES, { message: () => `expected an integer from 0 to ${MAX_RETRIES}` }),
    ),
  ).annotations(
    doc({
      description:
        "Retries of one rollout after a system error (unreachable, timeout, 5xx, 429, malformed body), with exponential backoff that honours `Retry-After`. Task and model failures are never retried.",
      synthAi: null,
      example: "3",
      flag: "--max-retries",
    }),
  ),
  pass_threshold: opt(Finite).annotations(
    doc({
      description: "A rollout passes when its score is at least this: used by pass@k and the cost per correct answer.",
      synthAi: null,
      example: "0.5",
    }),
  ),
  traces_dir: opt(Schema.String).annotations(
    doc({
      description:
        "Also write each rollout's trace as `{traces_dir}/seed_{seed}_trace.json` (synth-ai's `--traces-dir`); implies `return_trace`.",
      synthAi: null,
      example: '"traces"',
      flag: "--traces-dir",
    }),
  ),
  run_dir: opt(Schema.String).annotations(
    doc({
      description: "The run directory: `config.json`, `results.jsonl`, `model_calls.jsonl`, `traces/`, `summary.json`.",
      synthAi: null,
      example: '"runs/math-nightly"',
      flag: "--run-dir",
      defaultText: "`runs/{run_id}`",
    }),
  ),
  backend_url: opt(HttpUrl).annotations(
    doc({
      description:
        "synth-ai's backend mode: run as a job on this job server (proctor's or synth-ai's) instead of directly.",
      synthAi: null,
      example: '"http://127.0.0.1:8000"',
      flag: "--backend",
      defaultText: "`PROCTOR_BACKEND_URL`; none: run here",
    }),
  ),
  strict: opt(Schema.Boolean).annotations(
    doc({
      description: "Unknown keys are errors (exit 2) instead of warnings.",
      synthAi: null,
      example: "true",
      flag: "--strict",
    }),
  ),
  cluster_by: opt(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description:
        "A task field whose equal values make one cluster of the score's standard error (a passage, a topic); task apps report it in `metrics.details`. Without it, a seed's attempts are one cluster.",
      synthAi: null,
      example: '"passage"',
      defaultText: "none: a seed's attempts are one cluster",
    }),
  ),
  max_response_bytes: opt(PositiveInt).annotations(
    doc({
      description: "A task app's answer longer than this is refused as it streams in: an error of kind `too_large`.",
      synthAi: null,
      example: "1048576",
      flag: "--max-response-bytes",
    }),
  ),
  // Dataset evals (rows of a file are the tasks; proctor's prompt runner calls the model) and graders
  dataset: opt(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description:
        "A JSONL or CSV file whose rows are the tasks: proctor fills `prompt` (and `system`) from each row, asks the model, and `graders` grade its answer. Seeds are row indices (all rows by default); a row's task id is its `id` column or its row number. Takes the place of `url`.",
      synthAi: null,
      example: '"examples/datasets/questions.jsonl"',
      flag: "--dataset",
    }),
  ),
  prompt: opt(Schema.NonEmptyString).annotations(
    doc({
      description:
        "The user message of a dataset eval, a Liquid template over the row: `{{ item.question }}`. A column the template names that a row lacks is an error before anything runs.",
      synthAi: null,
      example: '"Answer with a number only. {{ item.question }}"',
      flag: "--prompt",
    }),
  ),
  system: opt(Schema.NonEmptyString).annotations(
    doc({
      description: "The system message of a dataset eval, a template like `prompt`.",
      synthAi: null,
      example: '"You are a careful assistant."',
      flag: "--system",
      defaultText: "none",
    }),
  ),
  tools: opt(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description:
        "A JSON file holding the tools a dataset eval offers the model: a list of function tools in OpenAI's chat shape (`{ type: \"function\", function: { name, description, parameters } }`), the Responses shape or Anthropic's (`{ name, description, input_schema }`); string values are templates over the row like `prompt`. When the model calls tools, the answer graders see is the calls as JSON (`[{ name, arguments }]`) unless it also wrote text, and the `tool_call` grader checks them.",
      synthAi: null,
      example: '"examples/datasets/add-tool.json"',
      flag: "--tools",
      defaultText: "none",
    }),
  ),
  graders: opt(GraderSpecs).annotations(
    doc({
      description:
        "Graders of each rollout's answer, `[[eval.graders]]` tables with a `type` (see the grader reference), an optional `name` and `weight`. Each is a metric of its own; the grader named `score` is the run's score, else their weighted mean. Dataset runs score with them; task-app and agent runs keep the task's score and put theirs in `verifier_score`.",
      synthAi: null,
      example: '[{ type = "equals", field = "answer" }]',
      flag: "--grader",
    }),
  ),
  // Evals written for other tools, run as dataset runs (packages/core/src/import)
  from_promptfoo: opt(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description:
        "A promptfoo config (`promptfooconfig.yaml`) to run as a dataset eval: each test × prompt is a task, asked of its provider's model (`--model`/`--inference-url` override it), its assertions graded by proctor's graders with promptfoo's rules. Anything proctor cannot run the same way is refused, naming its key. Takes the place of `url`.",
      synthAi: null,
      example: '"promptfooconfig.yaml"',
      flag: "--from-promptfoo",
    }),
  ),
  from_openai_evals: opt(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description:
        "An OpenAI Evals definition (a JSON file: `data_source_config`, `testing_criteria`, and the run's `data_source` with its `input_messages` template) to run on the items of `data` as a dataset eval, its criteria graded by proctor's graders with their documented rules. Takes the place of `url`.",
      synthAi: null,
      example: '"eval.json"',
      flag: "--from-openai-evals",
    }),
  ),
  data: opt(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description: 'The items of `from_openai_evals`: a JSONL file, one `{"item": {…}}` (or the item itself) a line.',
      synthAi: null,
      example: '"items.jsonl"',
      flag: "--data",
    }),
  ),
  variants: opt(GridVariantSpecs).annotations(
    doc({
      description:
        "Makes the run a grid: `[[eval.variants]]` tables of a `model`, `prompt` and/or `system` that differ from the run's, each a list or one value (lists multiply: 3 models × 2 prompts is 6 variants), an optional `inference_url` (one per table: the endpoint of its models when it is not the run's) and an optional `name` for a table of one variant. Every variant runs on the same seeds in one run directory (`variants/{name}/`, each a run directory of its own), sharing `concurrency`; `proctor compare RUN` ranks them. Repeating `--model` or `--prompt` makes the same matrix.",
      synthAi: null,
      example:
        '[{ model = ["gpt-4o-mini", "gpt-4.1-mini"], prompt = ["{{ item.question }}", "Answer briefly: {{ item.question }}"] }]',
    }),
  ),
  // Paying less while iterating: the response cache and the run's budgets
  cache: opt(Schema.Boolean).annotations(
    doc({
      description:
        "Answer a model request identical to one answered before (same model, messages or input, tools, parameters, attempt; key order, `stream_options`, `user`, `metadata`, `safety_identifier` and `prompt_cache_key` aside) from the response cache instead of the model. Cached calls are marked `cached: true` in `model_calls.jsonl`, cost 0 and report what they would have cost. Off unless set, at any temperature: a replayed answer measures the first run again, not the model.",
      synthAi: null,
      example: "true",
      flag: "--cache",
      defaultText: "off",
    }),
  ),
  cache_dir: opt(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description: "The response cache's directory, shared by every run that names it (also by runs going on at once).",
      synthAi: null,
      example: '"/var/cache/proctor"',
      flag: "--cache-dir",
      defaultText: "`$XDG_CACHE_HOME/proctor/responses`, else `~/.cache/proctor/responses`",
    }),
  ),
  max_run_cost: opt(
    Schema.Number.pipe(Schema.positive({ message: () => "expected a positive number of USD" })),
  ).annotations(
    doc({
      description:
        "Most USD this session of the run may spend on model calls (cached answers cost nothing). Once what is spent plus what the rollouts in flight are expected to spend reaches it, no new rollout starts; those in flight finish, the rest stay missing (resume runs them) and the summary says `stopped: budget max_run_cost reached`. Per rollout, see `max_cost`.",
      synthAi: null,
      example: "5",
      flag: "--max-run-cost",
      defaultText: "none",
    }),
  ),
  max_run_tokens: opt(PositiveInt).annotations(
    doc({
      description:
        "Most tokens (in and out) this session of the run may spend on model calls, enforced like `max_run_cost`. Per rollout, see `max_tokens`.",
      synthAi: null,
      example: "2000000",
      flag: "--max-run-tokens",
      defaultText: "none",
    }),
  ),
  // Agents acting in sandboxes (Harbor-format tasks) and their limits
  tasks: opt(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description:
        "A directory of Harbor-format task directories (`instruction.md`, `task.toml`, `environment/Dockerfile`, `tests/test.sh`, `solution/solve.sh`), or one such task: an agent carries each out in a sandbox and the task's tests grade it. Takes the place of `url`.",
      synthAi: null,
      example: '"examples/tasks"',
      flag: "--tasks",
    }),
  ),
  agent: opt(Schema.NonEmptyTrimmedString).annotations(
    doc({
      description:
        "The agent that carries out `tasks`: `oracle` (the task's `solution/solve.sh`), `builtin` (proctor's tool-calling shell agent, on `model`), `codex` (Codex CLI) or `claude-code` (Claude Code) in the sandbox, or the name of the agent `agent_config` declares.",
      synthAi: null,
      example: '"builtin"',
      flag: "--agent",
    }),
  ),
  agent_config: opt(DeclaredAgentConfig).annotations(
    doc({
      description:
        "A command-line agent of your own, run in each task's sandbox and named by `agent`: `run` (a shell line run in the workdir; the instruction is in `$PROCTOR_INSTRUCTION`), `install` (a shell line run before it), `env` (its environment, where `{base_url}`, `{api_key}` and `{model}` become the rollout's interceptor URL, a stand-in key and the model) and `paths` (host paths the sandbox sees read-only, e.g. the agent's installation).",
      synthAi: null,
      example:
        '{ run = "my-agent \\"$PROCTOR_INSTRUCTION\\"", env = { OPENAI_BASE_URL = "{base_url}", OPENAI_API_KEY = "{api_key}" } }',
    }),
  ),
  sandbox: opt(Schema.Literal("docker", "bwrap", "local")).annotations(
    doc({
      description:
        "Where each rollout's sandbox runs: `docker` (the task's Dockerfile), `bwrap` (bubblewrap: the host's installed software read-only, none of its data), `local` (no isolation; only when named).",
      synthAi: null,
      example: '"bwrap"',
      flag: "--sandbox",
      defaultText: "`docker`",
    }),
  ),
  max_turns: opt(PositiveInt).annotations(
    doc({
      description:
        'Most model turns of an agent\'s rollout; reaching it ends the rollout as a graded result with `stop_reason = "max_turns"`. For a command-line agent (`codex`, `claude-code`, a declared one) a turn is a model call, and the interceptor refuses the call past the limit.',
      synthAi: null,
      example: "30",
      flag: "--max-turns",
    }),
  ),
  max_tokens: opt(PositiveInt).annotations(
    doc({
      description:
        'Most tokens (in and out) one rollout\'s model calls may use, enforced by the interceptor: the call over budget gets an error answer and the rollout ends with `stop_reason = "max_tokens"`.',
      synthAi: null,
      example: "200000",
      flag: "--max-tokens",
    }),
  ),
  max_cost: opt(
    Schema.Number.pipe(Schema.positive({ message: () => "expected a positive number of USD" })),
  ).annotations(
    doc({
      description:
        'Most USD one rollout\'s model calls may cost, enforced by the interceptor like `max_tokens` (`stop_reason = "max_cost"`).',
      synthAi: null,
      example: "0.5",
      flag: "--max-cost",
    }),
  ),
  agent_timeout: opt(TimeoutSeconds).annotations(
    doc({
      description:
        "Seconds of the agent's working time per rollout (sandbox start-up and grading excluded); reaching it is a graded result with `stop_reason = \"max_time\"`. A task's `[agent] timeout_sec` wins for that task.",
      synthAi: null,
      example: "600",
      flag: "--agent-timeout",
    }),
  ),
  verifier_timeout: opt(TimeoutSeconds).annotations(
    doc({
      description:
        "Seconds the task's tests may take to grade a rollout. A task's `[verifier] timeout_sec` wins for that task.",
      synthAi: null,
      example: "120",
      flag: "--verifier-timeout",
    }),
  ),
  judge: opt(JudgeSettings).annotations(
    doc({
      description:
        "The judge model that model graders (`rubric`, `label`, `fact`, `pairwise`) ask, on an upstream of its own: its calls are traced through the run's interceptor and priced and reported apart from the policy's. See the `judge.` keys.",
      synthAi: null,
      example: '{ model = "gpt-4o-mini", provider = "openai" }',
      flag: "--judge",
    }),
  ),
})
export type EvalTomlSection = typeof EvalTomlSection.Type

export const defaults = {
  attempts: 1,
  concurrency: 8,
  timeout_s: 300,
  max_retries: 3,
  return_trace: false,
  trace_format: "compact" as TraceFormat,
  pass_threshold: 1,
  max_response_bytes: 16 * 1024 * 1024,
} as const

/** Seeds as a record holds them, already expanded: checked in one loop, not element by element, as a run may have millions. */
const SeedList = Schema.declare(
  (u: unknown): u is ReadonlyArray<number> => Array.isArray(u) && u.every(Number.isSafeInteger),
  { identifier: "SeedList", description: "a list of integer seeds" },
)
const NullableString = Schema.NullOr(Schema.String)

/**
 * The one codec of a resolved run config: `EvalRunConfig` (what the runner executes) ↔ its JSON form, in which
 * the timeout is synth-ai's `timeout` and the task-app key a plain string. `config.json` (`publicConfig`), the job
 * server's stored config and the CLI's job body are made from the JSON form; decoding it (`configFromRecord`) fills
 * in what a record written before a key existed lacks.
 */
export const EvalRunConfigFromJson = Schema.Struct({
  app_id: NullableString,
  task_app_url: Schema.String,
  task_app_api_key: Schema.optionalWith(Schema.NullOr(Schema.Redacted(Schema.String)), {
    exact: true,
    default: () => null,
  }),
  env_name: NullableString,
  seeds: SeedList,
  attempts: Schema.Int,
  concurrency: Schema.Int,
  timeout_s: Schema.propertySignature(Schema.Number).pipe(Schema.fromKey("timeout")),
  max_retries: Schema.Int,
  return_trace: Schema.Boolean,
  trace_format: TraceFormat,
  model: NullableString,
  provider: NullableString,
  policy_name: NullableString,
  policy_config: Table,
  env_config: Table,
  ops: Schema.NullOr(Schema.Array(Schema.Unknown)),
  pass_threshold: Schema.Number,
  /** See `EvalTomlSection.cluster_by`; absent: clusters are seeds (attempts > 1) or none. */
  cluster_by: opt(Schema.String),
  // Records written before the limit existed do not hold it.
  max_response_bytes: Schema.optionalWith(Schema.Int, { exact: true, default: () => defaults.max_response_bytes }),
  /** Dataset runs and graders (see `EvalTomlSection`): absent when not given. */
  dataset: opt(Schema.String),
  prompt: opt(Schema.String),
  system: opt(Schema.String),
  tools: opt(Schema.String),
  graders: opt(Schema.Array(GraderSpec)),
  /** Imported evals (see `EvalTomlSection`): absent when not given. */
  from_promptfoo: opt(Schema.String),
  from_openai_evals: opt(Schema.String),
  data: opt(Schema.String),
  /** A grid run's variants (see `EvalTomlSection.variants`); a variant's own config holds none. */
  variants: opt(Schema.Array(GridVariantSpec)),
  /** Agent runs (see `EvalTomlSection`): absent for task-app and `evaluate()` runs. */
  tasks: opt(Schema.String),
  agent: opt(Schema.String),
  agent_config: opt(DeclaredAgentConfig),
  sandbox: opt(Schema.Literal("docker", "bwrap", "local")),
  max_turns: opt(Schema.Int),
  max_tokens: opt(Schema.Int),
  max_cost: opt(Schema.Number),
  agent_timeout_s: opt(Schema.Number),
  verifier_timeout_s: opt(Schema.Number),
  /** The judge of model graders (see `EvalTomlSection.judge`): its model, parameters and key variable, never a key. */
  judge: opt(JudgeSettings),
  /** The response cache and the session's budgets (see `EvalTomlSection`): absent when not given. */
  cache: opt(Schema.Boolean),
  cache_dir: opt(Schema.String),
  max_run_cost: opt(Schema.Number),
  max_run_tokens: opt(Schema.Int),
})

/** A fully resolved eval run: what the runner executes and what `config.json` records (minus secrets). */
export interface EvalRunConfig extends Schema.Schema.Type<typeof EvalRunConfigFromJson> {}
/** A config's JSON form, secrets included. */
export type EvalRunConfigJson = typeof EvalRunConfigFromJson.Encoded

export const encodeRunConfig: (config: EvalRunConfig) => EvalRunConfigJson = Schema.encodeSync(EvalRunConfigFromJson)
const decodeRunConfig = Schema.decodeUnknownEither(EvalRunConfigFromJson, { errors: "all" })

/** What a record of a config (`publicConfig`) leaves out: the task-app key and the policy and env tables as given. */
export interface ConfigSecrets {
  readonly task_app_api_key: string | null
  readonly policy_config: Readonly<Record<string, unknown>>
  readonly env_config: Readonly<Record<string, unknown>>
}

export const secretsOf = (config: EvalRunConfig): ConfigSecrets => {
  const json = encodeRunConfig(config)
  return {
    task_app_api_key: json.task_app_api_key ?? null,
    policy_config: json.policy_config,
    env_config: json.env_config,
  }
}

/**
 * The secret-free JSON form of a config, as written to `config.json`, the job server's database and the
 * `--output-json` file. Secret-looking keys in the policy and env tables are left out, so a resumed run must get
 * them again from its environment.
 */
export const publicConfig = (config: EvalRunConfig) => {
  const { task_app_api_key: _, ...json } = encodeRunConfig(config)
  return { ...json, policy_config: withoutSecrets(json.policy_config), env_config: withoutSecrets(json.env_config) }
}
export type PublicEvalRunConfig = ReturnType<typeof publicConfig>

/**
 * A recorded config made runnable again, with whichever of its secrets the caller holds; or which keys of the
 * record are wrong (named, never shown: the secrets are part of what was decoded).
 */
export const configFromRecord = (
  record: PublicEvalRunConfig,
  secrets: Partial<ConfigSecrets>,
): Either.Either<EvalRunConfig, string> =>
  Either.mapLeft(decodeRunConfig({ ...record, ...secrets }), (error) => {
    const keys = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => issue.path.join(".") || "(top level)")
    return `wrong or missing ${[...new Set(keys)].join(", ")}`
  })
