import { isAbsolute } from "node:path"
import {
  agentNamed,
  DeclaredAgentConfig,
  defaults,
  type EvalRunConfig,
  expandSeeds,
  HARBOR_URL_PREFIX,
  redactSecrets,
  TraceFormat,
} from "@proctor/core"
import { Either, Redacted, Schema } from "effect"
import type { JobSpec } from "../jobs/JobManager.js"
import { InvalidRequest } from "./ApiErrors.js"
import { hostAllowed } from "./internal/hostAllowList.js"
import { issuesOf } from "./internal/issues.js"

/** Nested policy/env tables deeper than this are refused: they would only serve to exhaust the stack downstream. */
export const MAX_JSON_DEPTH = 32
const MAX_ATTEMPTS = 100
const MAX_TIMEOUT_S = 86_400
const MAX_RETRIES = 20
const MAX_ROLLOUTS = 1_000_000

const depthWithin = (value: unknown, max: number): boolean => {
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (typeof node !== "object" || node === null) continue
    if (depth > max) return false
    for (const child of Object.values(node))
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1])
  }
  return true
}

/** synth-ai sends `null` for every field it has no value for; null means "not given" everywhere in this body. */
const optional = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(Schema.NullOr(schema), { exact: true })

const text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `expected a string of at most ${max} characters` }))

const HttpUrl = Schema.String.pipe(
  Schema.maxLength(2048, { message: () => "expected a URL of at most 2048 characters" }),
  Schema.filter((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
    message: () => "expected an http(s) URL",
  }),
).annotations({ jsonSchema: { type: "string", format: "uri", maxLength: 2048 } })

const intBetween = (min: number, max: number) =>
  Schema.Number.pipe(
    Schema.filter((n) => Number.isInteger(n) && n >= min && n <= max, {
      message: () => `expected an integer from ${min} to ${max}`,
    }),
  ).annotations({ jsonSchema: { type: "integer", minimum: min, maximum: max } })

const Seconds = Schema.Number.pipe(
  Schema.filter((n) => n > 0 && n <= MAX_TIMEOUT_S, {
    message: () => `expected a number of seconds above 0 and at most ${MAX_TIMEOUT_S}`,
  }),
).annotations({ jsonSchema: { type: "number", exclusiveMinimum: 0, maximum: MAX_TIMEOUT_S } })

const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown }).pipe(
  Schema.filter((o) => depthWithin(o, MAX_JSON_DEPTH), {
    message: () => `expected an object nested at most ${MAX_JSON_DEPTH} levels deep`,
  }),
)

const SafeInt = Schema.Number.pipe(
  Schema.filter((n) => Number.isSafeInteger(n), { message: () => "expected an integer seed" }),
).annotations({ jsonSchema: { type: "integer" } })
const SeedSpec = text(100_000)
const SeedsInput = Schema.Union(Schema.Array(Schema.Union(SafeInt, SeedSpec)), SeedSpec, SafeInt).annotations({
  description: 'a list of integer seeds, or strings with inclusive ranges ("0-99", "1,5,10-12")',
})

/** synth-ai's `policy`: the policy config with `policy_name` inside it. Any other key is passed to the task app. */
const Policy = Schema.Struct(
  {
    policy_name: optional(text(256)),
    model: optional(text(256)),
    provider: optional(text(256)),
    inference_url: optional(text(2048)),
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown }),
).pipe(
  Schema.filter((o) => depthWithin(o, MAX_JSON_DEPTH), {
    message: () => `expected an object nested at most ${MAX_JSON_DEPTH} levels deep`,
  }),
)

/**
 * `POST /api/eval/jobs`: synth-ai's eval job body, plus proctor's optional run settings. Unknown keys (such as
 * newer synth-ai's `verifier_config`) are ignored, so newer clients keep working.
 */
export const JobCreateRequest = Schema.Struct({
  /** Required unless the job is an agent job (`tasks`). */
  task_app_url: optional(HttpUrl),
  task_app_api_key: optional(text(4096)),
  app_id: optional(text(256)),
  env_name: optional(text(256)),
  seeds: SeedsInput,
  policy: optional(Policy),
  env_config: optional(JsonObject),
  mode: optional(text(64)),
  max_concurrent: optional(intBetween(1, 100_000)),
  /** proctor's name for `max_concurrent`; `max_concurrent` wins when both are given. */
  concurrency: optional(intBetween(1, 100_000)),
  timeout: optional(Seconds),
  attempts: optional(intBetween(1, MAX_ATTEMPTS)),
  max_retries: optional(intBetween(0, MAX_RETRIES)),
  return_trace: optional(Schema.Boolean),
  trace_format: optional(TraceFormat),
  pass_threshold: optional(
    Schema.Number.pipe(Schema.filter((n) => Number.isFinite(n), { message: () => "expected a finite number" })),
  ),
  /** A task field (reported in `metrics.details`) whose equal values are one cluster of the score's error bar. */
  cluster_by: optional(text(256).pipe(Schema.nonEmptyString({ message: () => "expected a non-empty string" }))),
  ops: optional(
    Schema.Array(Schema.Unknown).pipe(
      Schema.filter((a) => depthWithin(a, MAX_JSON_DEPTH), {
        message: () => `expected a list nested at most ${MAX_JSON_DEPTH} levels deep`,
      }),
    ),
  ),
  // An agent job: Harbor-format tasks carried out by an agent in sandboxes, in place of a task app.
  /**
   * An absolute path to a directory of Harbor-format tasks on the machines that run the rollouts (the embedded
   * server's, or every worker's): tasks are not uploaded with the job.
   */
  tasks: optional(
    text(4096).pipe(
      Schema.filter((path) => isAbsolute(path), {
        message: () => "expected an absolute path on the workers' machines",
      }),
    ),
  ),
  agent: optional(text(256)),
  agent_config: optional(DeclaredAgentConfig),
  /** `local` (no isolation) is refused: a job's agent would run its commands as the server's own user. */
  sandbox: optional(Schema.Literal("docker", "bwrap")),
  max_turns: optional(intBetween(1, 1_000_000)),
  max_tokens: optional(intBetween(1, Number.MAX_SAFE_INTEGER)),
  max_cost: optional(
    Schema.Number.pipe(
      Schema.filter((n) => Number.isFinite(n) && n > 0, { message: () => "expected a positive number of USD" }),
    ),
  ),
  agent_timeout: optional(Seconds),
  verifier_timeout: optional(Seconds),
})
export type JobCreateRequest = typeof JobCreateRequest.Type

export interface RequestLimits {
  /** Default 100,000. */
  readonly maxSeedsPerJob: number
  /** The most rollouts one job may run at once (`max_concurrent`). */
  readonly maxConcurrency: number
  /** When set, `task_app_url` must name one of these hosts (403 otherwise). */
  readonly allowedTaskAppHosts: ReadonlyArray<string> | null
}

const decodeBody = Schema.decodeUnknownEither(JobCreateRequest, { errors: "all", onExcessProperty: "ignore" })

const invalid = (field: string, message: string) => Either.left(InvalidRequest.field(field, message))

/** Jobs run with traces unless told otherwise: the traces zip is half of what the job API is for. */
const JOB_DEFAULT_RETURN_TRACE = true

/** Validates a job body against the schema and the server's limits, and resolves it to a runnable config. */
export const decodeJobRequest = (body: unknown, limits: RequestLimits): Either.Either<JobSpec, InvalidRequest> => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return invalid("body", "expected a JSON object")
  }
  // Checked before decoding: a schema error over a 5,000-deep value would overflow the stack while being formatted.
  for (const [field, value] of Object.entries(body)) {
    if (!depthWithin(value, MAX_JSON_DEPTH)) {
      return invalid(field, `expected a value nested at most ${MAX_JSON_DEPTH} levels deep`)
    }
  }
  const decoded = decodeBody(body)
  if (Either.isLeft(decoded)) {
    const issues = issuesOf(decoded.left)
    const first = issues[0] ?? { field: "body", message: "is invalid" }
    return Either.left(
      new InvalidRequest({
        reason: "InvalidField",
        field: first.field,
        message: issues.map((i) => `${i.field}: ${i.message}`).join("; "),
        issues,
      }),
    )
  }
  const request = decoded.right
  const seeds = expandSeeds(request.seeds, limits.maxSeedsPerJob, "this server's limit per job")
  if (Either.isLeft(seeds)) return invalid("seeds", seeds.left)
  const attempts = request.attempts ?? defaults.attempts
  if (seeds.right.length * attempts > MAX_ROLLOUTS) {
    return invalid("attempts", `seeds × attempts is more than ${MAX_ROLLOUTS} rollouts`)
  }
  const concurrency = request.max_concurrent ?? request.concurrency ?? defaults.concurrency
  if (concurrency > limits.maxConcurrency) {
    const field = request.max_concurrent != null ? "max_concurrent" : "concurrency"
    return invalid(field, `at most ${limits.maxConcurrency} on this server`)
  }
  const agentJob = agentJobOf(request)
  if (Either.isLeft(agentJob)) return Either.left(agentJob.left)
  const taskAppUrl = agentJob.right === null ? request.task_app_url : `${HARBOR_URL_PREFIX}${request.tasks}`
  if (taskAppUrl == null) return invalid("task_app_url", "is missing (or give tasks and agent for an agent job)")
  const url = agentJob.right === null ? new URL(taskAppUrl) : null
  if (url !== null && limits.allowedTaskAppHosts !== null && !hostAllowed(url, limits.allowedTaskAppHosts)) {
    return Either.left(
      InvalidRequest.field(
        "task_app_url",
        `host ${url.host} is not in this server's task-app allow-list`,
        "HostNotAllowed",
      ),
    )
  }

  const { policy_name, ...policyConfig } = request.policy ?? {}
  const model = typeof policyConfig.model === "string" ? policyConfig.model : null
  const provider = typeof policyConfig.provider === "string" ? policyConfig.provider : null
  const apiKey = request.task_app_api_key ?? null
  const config: EvalRunConfig = {
    app_id: request.app_id ?? null,
    task_app_url: taskAppUrl,
    task_app_api_key: apiKey === null || apiKey === "" ? null : Redacted.make(apiKey),
    env_name: request.env_name ?? null,
    seeds: seeds.right,
    attempts,
    concurrency,
    timeout_s: request.timeout ?? defaults.timeout_s,
    max_retries: request.max_retries ?? defaults.max_retries,
    return_trace: request.return_trace ?? JOB_DEFAULT_RETURN_TRACE,
    trace_format: request.trace_format ?? defaults.trace_format,
    model,
    provider,
    policy_name: policy_name ?? null,
    policy_config: policyConfig,
    env_config: request.env_config ?? {},
    ops: request.ops ?? null,
    pass_threshold: request.pass_threshold ?? defaults.pass_threshold,
    max_response_bytes: defaults.max_response_bytes,
    ...(request.cluster_by == null ? {} : { cluster_by: request.cluster_by }),
    ...agentJob.right,
  }
  return Either.right({
    config,
    mode: request.mode ?? null,
    requested: redactSecrets(request) as Readonly<Record<string, unknown>>,
  })
}

/** An agent job's part of the config (null for a task-app job), or which field is wrong. */
const agentJobOf = (request: JobCreateRequest): Either.Either<Partial<EvalRunConfig> | null, InvalidRequest> => {
  if (request.tasks == null) {
    return request.agent == null ? Either.right(null) : invalid("tasks", "is missing: an agent job names its tasks")
  }
  if (request.task_app_url != null) return invalid("tasks", "an agent job has no task_app_url: give one or the other")
  if (request.agent == null) return invalid("agent", "is missing: an agent job names its agent")
  const agent = agentNamed(request.agent, request.agent_config ?? undefined)
  if (Either.isLeft(agent)) return invalid("agent", agent.left.message.replace(/^agent: /, ""))
  const given = {
    tasks: request.tasks,
    agent: request.agent,
    agent_config: request.agent_config,
    sandbox: request.sandbox ?? "docker",
    max_turns: request.max_turns,
    max_tokens: request.max_tokens,
    max_cost: request.max_cost,
    agent_timeout_s: request.agent_timeout,
    verifier_timeout_s: request.verifier_timeout,
  }
  return Either.right(Object.fromEntries(Object.entries(given).filter(([, value]) => value != null)))
}
