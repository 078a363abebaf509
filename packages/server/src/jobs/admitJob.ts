import { randomBytes } from "node:crypto"
import { type EvalRunConfig, type RunSummary, secretsOf } from "@proctor/core"
import { Effect } from "effect"
import type { ApiKeyRecord } from "./ApiKey.js"
import { storedConfigOf } from "./JobConfig.js"
import { JobRejected } from "./JobRejected.js"
import type { JobStatus } from "./JobStatus.js"
import type { JobRecord, JobStoreService } from "./JobStore.js"
import type { SecretBoxService } from "./SecretBox.js"

/** A validated job request: the runnable config, and synth-ai's `mode` (echoed back, not used by the runner). */
export interface JobSpec {
  readonly config: EvalRunConfig
  readonly mode: string | null
  /** The request as the client sent it, without secrets: what the job's status shows as its `config`. */
  readonly requested: Readonly<Record<string, unknown>>
}

export const newJobId = (): string => `eval-${randomBytes(12).toString("hex")}`

export const nowIso = () => new Date().toISOString()

/**
 * Checks the key's quota and stores the job as `pending`, its secrets sealed (committed before this returns). The
 * caller serialises calls, so two racing submissions cannot both squeeze under the quota.
 */
export const admitJob = (
  store: JobStoreService,
  box: SecretBoxService,
  owner: ApiKeyRecord,
  spec: JobSpec,
  quota: number,
): Effect.Effect<JobRecord, JobRejected | import("./JobStoreError.js").JobStoreError> =>
  Effect.gen(function* () {
    const active = yield* store.countActiveJobs(owner.id)
    if (active >= quota) {
      return yield* new JobRejected({
        reason: "QuotaExceeded",
        message: `this key already has ${active} jobs pending or running (the limit is ${quota})`,
      })
    }
    const id = newJobId()
    const job = {
      id,
      ownerKeyId: owner.id,
      config: storedConfigOf(spec.config, spec.mode),
      requested: spec.requested,
      secretsSealed: box.seal(JSON.stringify(secretsOf(spec.config)), id),
      planned: spec.config.seeds.length * spec.config.attempts,
      numSeeds: spec.config.seeds.length,
      createdAt: nowIso(),
    }
    yield* store.insertJob(job)
    return {
      ...job,
      status: "pending" as const,
      error: null,
      startedAt: null,
      completedAt: null,
      summary: null,
      stats: null,
    } satisfies JobRecord
  })

/** How a run that finished on its own ends: `failed` when not one rollout succeeded, `completed` otherwise. */
export const verdict = (summary: RunSummary): { status: JobStatus; error: string | null } => {
  if (summary.completed > 0 && summary.ok === 0) {
    const kinds = Object.entries(summary.errors_by_kind)
      .map(([kind, n]) => `${kind} ×${n}`)
      .join(", ")
    return { status: "failed", error: `every rollout failed (${kinds})` }
  }
  if (summary.completed === 0) return { status: "failed", error: "no rollout completed" }
  return { status: "completed", error: null }
}
