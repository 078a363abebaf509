import { resolve } from "node:path"
import { type EvalRunConfig, type EvalRunConfigJson, encodeRunConfig } from "@proctor/core"

/**
 * The body of `POST /api/eval/jobs`: synth-ai's fields first, proctor's additions after. The task-app key
 * has to travel to the server (it runs the rollouts), which is the one place a secret leaves this process.
 */
export interface JobSubmission {
  /** Absent for an agent job, which names its `tasks` instead. */
  readonly task_app_url?: string
  readonly task_app_api_key: string | null
  readonly app_id: string | null
  readonly env_name: string | null
  readonly seeds: ReadonlyArray<number>
  readonly policy: Readonly<Record<string, unknown>>
  readonly env_config: Readonly<Record<string, unknown>>
  readonly mode: "eval"
  readonly max_concurrent: number
  readonly timeout: number
  readonly attempts: number
  readonly max_retries: number
  readonly return_trace: boolean
  readonly trace_format: string
  readonly pass_threshold: number
  readonly cluster_by?: string
  readonly ops?: ReadonlyArray<unknown>
  readonly tasks?: string
  readonly agent?: string
  readonly agent_config?: EvalRunConfigJson["agent_config"]
  readonly sandbox?: string
  readonly max_turns?: number
  readonly max_tokens?: number
  readonly max_cost?: number
  readonly agent_timeout?: number
  readonly verifier_timeout?: number
}

/**
 * synth-ai's policy block: `policy_name`, `model`, `provider` and then the `[eval.policy_config]` table
 * flattened in (`inference_url`, `temperature`, …), the table winning where both set a key.
 */
const policyOf = (config: EvalRunConfigJson): Record<string, unknown> => ({
  ...(config.policy_name === null ? {} : { policy_name: config.policy_name }),
  ...(config.model === null ? {} : { model: config.model }),
  ...(config.provider === null ? {} : { provider: config.provider }),
  ...config.policy_config,
})

/** What a job cannot carry, by the flag (or key) that asked for it, and where it runs instead. */
const STAYS_HERE: ReadonlyArray<readonly [keyof EvalRunConfig, string]> = [
  ["dataset", "--dataset (a dataset eval runs on this machine)"],
  ["graders", "--grader (graders run on this machine)"],
  ["judge", "--judge (judges grade on this machine)"],
  ["cache", "--cache (the response cache is this machine's)"],
  ["max_run_cost", "--max-run-cost (a job's budget is the server's)"],
  ["max_run_tokens", "--max-run-tokens (a job's budget is the server's)"],
]

/**
 * Why this config cannot go to a job server, naming the flag; null when it can. Nothing a job would leave out is
 * dropped silently: the user runs it here instead.
 */
export const refusedAsJob = (config: EvalRunConfig): string | null => {
  const found = STAYS_HERE.find(([key]) => config[key] !== undefined && config[key] !== false)
  return found === undefined ? null : `--backend: a job cannot take ${found[1]}; drop --backend to run it here`
}

/**
 * The job a resolved config describes: the same config direct mode would run, run by the server instead. Its
 * JSON form (core's config codec) with synth-ai's job names: the policy block, `max_concurrent` and `mode`.
 */
export const jobSubmission = (config: EvalRunConfig): JobSubmission => {
  const json = encodeRunConfig(config)
  return {
    ...(json.tasks === undefined ? { task_app_url: json.task_app_url } : agentJobOf(json, json.tasks)),
    task_app_api_key: json.task_app_api_key ?? null,
    app_id: json.app_id,
    env_name: json.env_name,
    seeds: json.seeds,
    policy: policyOf(json),
    env_config: json.env_config,
    mode: "eval",
    max_concurrent: json.concurrency,
    timeout: json.timeout,
    attempts: json.attempts,
    max_retries: json.max_retries,
    return_trace: json.return_trace,
    trace_format: json.trace_format,
    pass_threshold: json.pass_threshold,
    ...(json.cluster_by === undefined ? {} : { cluster_by: json.cluster_by }),
    ...(json.ops === null ? {} : { ops: json.ops }),
  }
}

/**
 * An agent job's fields. The tasks' directory goes as an absolute path: the server's workers read it on their own
 * machines (a path they share with this one, or the same checkout), nothing is uploaded.
 */
const agentJobOf = (json: EvalRunConfigJson, tasks: string) => {
  const fields = {
    tasks: resolve(tasks),
    agent: json.agent,
    agent_config: json.agent_config,
    sandbox: json.sandbox,
    max_turns: json.max_turns,
    max_tokens: json.max_tokens,
    max_cost: json.max_cost,
    agent_timeout: json.agent_timeout_s,
    verifier_timeout: json.verifier_timeout_s,
  }
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<JobSubmission>
}
