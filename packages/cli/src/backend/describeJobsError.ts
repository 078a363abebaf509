import { ExitCode } from "../exitCodes.js"
import type { JobsClientError } from "./JobsClientError.js"

/** Request fields of the job API → the `proctor eval` flag or config key a user set them with. */
const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  task_app_url: "--url / eval.url",
  task_app_api_key: "eval.task_app_api_key / ENVIRONMENT_API_KEY",
  seeds: "--seeds / eval.seeds",
  max_concurrent: "--concurrency / eval.concurrency",
  timeout: "--timeout / eval.timeout",
  attempts: "--attempts / eval.attempts",
  max_retries: "--max-retries / eval.max_retries",
  app_id: "APP_ID / eval.app_id",
  env_name: "eval.env_name",
  "policy.model": "--model / eval.model",
  "policy.inference_url": "eval.policy_config.inference_url",
  trace_format: "eval.trace_format",
  pass_threshold: "eval.pass_threshold",
}

/**
 * One line for the terminal and the exit code: the caller's mistakes (a refused key, an unknown job, a
 * rejected field) exit 2 like any bad input; the server's or the network's failures exit 1.
 */
export const describeJobsError = (
  error: JobsClientError,
  context: { readonly baseUrl: string; readonly jobId?: string | undefined },
): { readonly message: string; readonly exitCode: ExitCode } => {
  switch (error.reason) {
    case "Unauthorized":
      return {
        message: `the job server at ${context.baseUrl} refused the API key (HTTP ${error.status ?? 401}): ${error.message}; check --api-key / PROCTOR_API_KEY`,
        exitCode: ExitCode.Usage,
      }
    case "NotFound":
      return {
        message:
          context.jobId === undefined
            ? `${error.endpoint}: not found (is ${context.baseUrl} a proctor or synth-ai job server?)`
            : `no job ${context.jobId} on ${context.baseUrl} (or it belongs to another key)`,
        exitCode: ExitCode.Usage,
      }
    case "BadRequest": {
      const field =
        error.field === undefined
          ? ""
          : `${error.field}${FLAG_OF_FIELD[error.field] === undefined ? "" : ` (${FLAG_OF_FIELD[error.field]})`}: `
      return {
        message: `the job server rejected the request (HTTP ${error.status ?? 400}): ${field}${error.message}`,
        exitCode: ExitCode.Usage,
      }
    }
    case "Unreachable":
    case "Server":
    case "Decode":
      return { message: error.message, exitCode: ExitCode.Failed }
  }
}
