import { Effect, Either } from "effect"
import { type ApiKeyRecord, hashApiKey, looksLikeApiKey } from "../jobs/ApiKey.js"
import { type JobRecord, JobStore } from "../jobs/JobStore.js"
import { JobNotFound, Unauthorized } from "./ApiErrors.js"
import { ApiKeyCache } from "./internal/ApiKeyCache.js"
import { RateLimiter } from "./RateLimiter.js"

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i

const invalidKey = () => new Unauthorized({ reason: "InvalidKey", message: "the API key is not valid" })

/** The key of `Authorization: Bearer pk_…` as its hash, which keys are looked up and cached by. */
export const bearerKeyHash = (authorization: string | undefined): Either.Either<string, Unauthorized> => {
  if (authorization === undefined || authorization.trim() === "") {
    return Either.left(
      new Unauthorized({ reason: "MissingKey", message: "an API key is required: Authorization: Bearer KEY" }),
    )
  }
  const key = BEARER.exec(authorization)?.[1]
  // Well-formedness is checked first so garbage never reaches the database.
  if (key === undefined || !looksLikeApiKey(key)) return Either.left(invalidKey())
  return Either.right(hashApiKey(key))
}

/** A key's hash → its record as the database has it now, after taking a token from the key's rate-limit bucket. */
export const authenticateKeyHash = Effect.fnUntraced(function* (keyHash: string) {
  const record = yield* (yield* ApiKeyCache).lookup(keyHash)
  if (record === null) return yield* invalidKey()
  yield* (yield* RateLimiter).take(record.id)
  return record
})

/**
 * `Authorization: Bearer pk_…` → the key's record, after taking a token from the key's rate-limit bucket. It asks
 * the database every time, so a revoked key is refused at once: only the status poll trusts the key cache.
 */
export const authenticate = Effect.fnUntraced(function* (authorization: string | undefined) {
  return yield* authenticateKeyHash(yield* bearerKeyHash(authorization))
})

const JOB_ID = /^[A-Za-z0-9_.-]{1,100}$/

/** Whether a key may see a job of this owner: its own, or any job for an admin key. */
export const mayRead = (key: ApiKeyRecord, ownerKeyId: string): boolean => key.isAdmin || ownerKeyId === key.id

/** The one 404 for a job that does not exist and for a job the key may not see: nothing tells the two apart. */
export const jobNotFound = (jobId: string) =>
  new JobNotFound({ reason: "NotFound", message: `no job ${JOB_ID.test(jobId) ? jobId : ""}`.trim() })

/** A job the key may see; anything else is the same 404 as no job at all. */
// Untraced, and the 404 built only when it is the answer: a span and a schema-checked error per poll were a
// measurable share of the status route's CPU.
export const jobFor = Effect.fnUntraced(function* (key: ApiKeyRecord, jobId: string) {
  if (!JOB_ID.test(jobId)) return yield* jobNotFound(jobId)
  const job: JobRecord | null = yield* (yield* JobStore).getJob(jobId)
  if (job === null || !mayRead(key, job.ownerKeyId)) return yield* jobNotFound(jobId)
  return job
})
