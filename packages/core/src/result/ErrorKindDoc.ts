import type { ErrorKind } from "./EvalResult.js"

export interface ErrorKindDoc {
  /** Whether the runner retries a rollout that failed this way (up to `max_retries`, with backoff). */
  readonly retried: "yes" | "no" | "when the solver threw RetryableError"
  /** What happened, in a user's words. */
  readonly meaning: string
}

/**
 * Every `ErrorKind` a result's `error_kind` can hold, explained for the error-kinds reference (apps/docs). Typed as
 * a record of every kind, so a new kind cannot ship undocumented; a test checks `retried` against the errors'
 * own `retryable`.
 */
export const errorKindDocs: Readonly<Record<ErrorKind, ErrorKindDoc>> = {
  unreachable: {
    retried: "yes",
    meaning: "The task app could not be reached: connection refused or reset, DNS failure.",
  },
  timeout: {
    retried: "yes",
    meaning:
      "No answer within the rollout's timeout (a task app's rollout in the async form: none by its deadline; proctor asks the app to terminate it).",
  },
  http_5xx: {
    retried: "yes",
    meaning:
      "The task app answered 5xx, reported `failed` a rollout it ran in the background, or every model call of the rollout failed with a 5xx or no answer.",
  },
  rate_limited: {
    retried: "yes",
    meaning: "HTTP 429 from the task app or from the model for every call; the wait honours Retry-After.",
  },
  malformed_body: { retried: "yes", meaning: "The answer was cut off or is not JSON." },
  http_4xx: {
    retried: "no",
    meaning: "The task app refused the request (4xx), or the model refused every call of the rollout.",
  },
  auth: {
    retried: "no",
    meaning:
      "The key was refused: the task app's 401/403, synth-ai's 400 `unauthorised` envelope, or the model's 401/403.",
  },
  decode: { retried: "no", meaning: "The answer is JSON but not a rollout response proctor can read." },
  aborted: { retried: "no", meaning: "The task app reported the rollout as aborted." },
  solver: {
    retried: "when the solver threw RetryableError",
    meaning: "An in-process solver (evaluate()'s solve) threw.",
  },
  no_score: { retried: "no", meaning: "The answer was 2xx but holds no finite score." },
  too_large: {
    retried: "no",
    meaning: "The answer was longer than max_response_bytes and was refused as it streamed in.",
  },
  sandbox: {
    retried: "yes",
    meaning:
      "The rollout's sandbox would not build or start, died or was killed, or its runtime (the Docker daemon) went away: never scored.",
  },
  verifier: {
    retried: "no",
    meaning: "The task's tests ran but left no reward (`/logs/verifier/reward.txt` or `reward.json`), or timed out.",
  },
  judge: {
    retried: "no",
    meaning:
      "A model grader's judge gave no usable verdict: its answer did not parse or was out of the declared range, or its calls failed, after the judge's own retries with backoff (`[eval.judge] retries`).",
  },
}
