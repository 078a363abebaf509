import { type ViewerError, viewerErrorStatus } from "@proctor/viewer/backend"
import type { JobRejected } from "../jobs/JobRejected.js"
import type { JobStoreError } from "../jobs/JobStoreError.js"
import type { SecretBoxError } from "../jobs/SecretBox.js"
import type { InvalidRequest, JobNotFound, RateLimited, Unauthorized } from "./ApiErrors.js"
import type { ErrorResponse } from "./ApiSchemas.js"

export type ApiFailure =
  | InvalidRequest
  | Unauthorized
  | JobNotFound
  | RateLimited
  | JobRejected
  | JobStoreError
  | SecretBoxError
  | ViewerError

export interface HttpError {
  readonly status: number
  readonly body: ErrorResponse
  readonly headers: Readonly<Record<string, string>>
}

export const errorBody = (
  code: string,
  message: string,
  extra: Partial<ErrorResponse["error"]> = {},
): ErrorResponse => ({
  error: { code, message, ...extra },
})

/** The one place where error tags become status codes. */
export const httpErrorOf = (error: ApiFailure): HttpError => {
  switch (error._tag) {
    case "InvalidRequest":
      return {
        status: error.reason === "HostNotAllowed" ? 403 : 400,
        body: errorBody(error.reason === "HostNotAllowed" ? "host_not_allowed" : "invalid_request", error.message, {
          field: error.field,
          issues: error.issues,
        }),
        headers: {},
      }
    case "Unauthorized":
      return {
        status: 401,
        body: errorBody(error.reason === "MissingKey" ? "missing_api_key" : "invalid_api_key", error.message),
        headers: { "www-authenticate": 'Bearer realm="proctor"' },
      }
    case "JobNotFound":
      return { status: 404, body: errorBody("job_not_found", error.message), headers: {} }
    case "RateLimited":
      return {
        status: 429,
        body: errorBody("rate_limited", error.message),
        headers: { "retry-after": String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) },
      }
    case "JobRejected":
      return error.reason === "QuotaExceeded"
        ? { status: 429, body: errorBody("job_quota_exceeded", error.message), headers: {} }
        : { status: 503, body: errorBody("shutting_down", error.message), headers: { "retry-after": "5" } }
    case "JobStoreError":
      // The database's own message stays in the server log: it can name tables and hosts.
      return { status: 503, body: errorBody("store_unavailable", "the job database is unavailable"), headers: {} }
    case "ViewerError": {
      const { status, code } = viewerErrorStatus(error)
      return { status, body: errorBody(code, error.message, { field: error.field }), headers: {} }
    }
    case "SecretBoxError":
      return {
        status: 503,
        body: errorBody("secrets_unavailable", "the server's secret key is unavailable"),
        headers: {},
      }
  }
}
