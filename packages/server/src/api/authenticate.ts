import { Effect } from "effect"
import { type ApiKeyRecord, hashApiKey, looksLikeApiKey } from "../jobs/ApiKey.js"
import { type JobRecord, JobStore } from "../jobs/JobStore.js"
import { JobNotFound, Unauthorized } from "./ApiErrors.js"
import { RateLimiter } from "./RateLimiter.js"

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i

/** `Authorization: Bearer pk_…` → the key's record, after taking a token from the key's rate-limit bucket. */
export const authenticate = Effect.fnUntraced(function* (authorization: string | undefined) {
  if (authorization === undefined || authorization.trim() === "") {
    return yield* new Unauthorized({
      reason: "MissingKey",
      message: "an API key is required: Authorization: Bearer KEY",
    })
  }
  const key = BEARER.exec(authorization)?.[1]
  // Well-formedness is checked first so garbage never reaches the database.
  if (key === undefined || !looksLikeApiKey(key)) {
    return yield* new Unauthorized({ reason: "InvalidKey", message: "the API key is not valid" })
  }
  const store = yield* JobStore
  const record = yield* store.findApiKeyByHash(hashApiKey(key))
  if (record === null) return yield* new Unauthorized({ reason: "InvalidKey", message: "the API key is not valid" })
  yield* (yield* RateLimiter).take(record.id)
  return record
})

const JOB_ID = /^[A-Za-z0-9_.-]{1,100}$/

/** A job the key may see: its own, or any job for an admin key. Anything else is the same 404 as no job at all. */
// Untraced, and the 404 built only when it is the answer: a span and a schema-checked error per poll were a
// measurable share of the status route's CPU.
export const jobFor = Effect.fnUntraced(function* (key: ApiKeyRecord, jobId: string) {
  const valid = JOB_ID.test(jobId)
  const notFound = () => new JobNotFound({ reason: "NotFound", message: `no job ${valid ? jobId : ""}`.trim() })
  if (!valid) return yield* notFound()
  const job: JobRecord | null = yield* (yield* JobStore).getJob(jobId)
  if (job === null || (!key.isAdmin && job.ownerKeyId !== key.id)) return yield* notFound()
  return job
})
