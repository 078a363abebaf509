import type { EvalResult, ModelCall, RolloutStep, RunSummary } from "@proctor/core"
import type { Effect } from "effect"
import type { ApiKeyRecord } from "./ApiKey.js"
import type { StoredJobConfig } from "./JobConfig.js"
import type { JobStatus } from "./JobStatus.js"
import type { JobStoreError } from "./JobStoreError.js"
import type { ResultStats, ResultTally, TallyRow } from "./ResultTally.js"

export interface JobRecord {
  readonly id: string
  readonly ownerKeyId: string
  readonly status: JobStatus
  readonly config: StoredJobConfig
  /** The request as the client sent it, secrets left out; null for jobs stored before it was kept. */
  readonly requested: Readonly<Record<string, unknown>> | null
  /** The sealed `JobSecrets`; null once the job has ended. */
  readonly secretsSealed: string | null
  /** Rollouts planned: seeds × attempts. */
  readonly planned: number
  readonly numSeeds: number
  readonly error: string | null
  readonly createdAt: string
  readonly startedAt: string | null
  readonly completedAt: string | null
  readonly summary: RunSummary | null
  /** The aggregate stored when the job ended; null while it runs (and for jobs ended before it was stored). */
  readonly stats: ResultStats | null
}

export interface NewJob {
  readonly id: string
  readonly ownerKeyId: string
  readonly config: StoredJobConfig
  readonly requested?: Readonly<Record<string, unknown>> | null | undefined
  readonly secretsSealed: string
  readonly planned: number
  readonly numSeeds: number
  readonly createdAt: string
}

export interface NewApiKey {
  readonly record: ApiKeyRecord
  readonly keyHash: string
}

/** A page position: the last (seed, attempt) already read. */
export interface RolloutCursor {
  readonly seed: number
  readonly attempt: number
}

export interface StoredRow extends RolloutCursor {
  /** The stored JSON text, handed to clients as it is. */
  readonly json: string
}

export interface ResultWrite {
  readonly result: EvalResult
  /** Its place in the viewer's order of the job's rows (kept from the first write of a key); 0 when unnumbered. */
  readonly seq?: number | undefined
}

export interface JobListFilter {
  /** null lists every owner's jobs (an admin key). */
  readonly ownerKeyId: string | null
  readonly statuses: ReadonlyArray<JobStatus> | null
  readonly limit: number
  /** Keyset position, newest first: the (created_at, id) of the last job of the previous page. */
  readonly before: { readonly createdAt: string; readonly id: string } | null
}

/** The database itself: which one, whether it answers, and the secret key its task-app keys are sealed with. */
export interface StoreSettingsService {
  readonly dialect: "sqlite" | "pg"
  readonly ping: Effect.Effect<void, JobStoreError>
  /** The fingerprint of the secret key this database's task-app keys are sealed with; null before the first. */
  readonly secretKeyFingerprint: Effect.Effect<string | null, JobStoreError>
  /** Records `fingerprint` unless one is recorded already; returns the one recorded (first writer wins). */
  readonly claimSecretKeyFingerprint: (fingerprint: string) => Effect.Effect<string, JobStoreError>
}

/** API keys: only their hashes are stored. */
export interface ApiKeyStoreService {
  readonly insertApiKey: (key: NewApiKey) => Effect.Effect<void, JobStoreError>
  /** Only keys that are not revoked. */
  readonly findApiKeyByHash: (keyHash: string) => Effect.Effect<ApiKeyRecord | null, JobStoreError>
  readonly listApiKeys: Effect.Effect<ReadonlyArray<ApiKeyRecord>, JobStoreError>
  readonly revokeApiKey: (id: string, at: string) => Effect.Effect<boolean, JobStoreError>
}

/** The `jobs` rows and how a job moves between states. */
export interface JobRowStoreService {
  readonly insertJob: (job: NewJob) => Effect.Effect<void, JobStoreError>
  readonly getJob: (id: string) => Effect.Effect<JobRecord | null, JobStoreError>
  readonly listJobs: (query: JobListFilter) => Effect.Effect<ReadonlyArray<JobRecord>, JobStoreError>
  readonly countActiveJobs: (ownerKeyId: string) => Effect.Effect<number, JobStoreError>
  readonly countJobsByStatus: Effect.Effect<ReadonlyMap<string, number>, JobStoreError>
  /** Jobs a previous process left pending or running, oldest first. */
  readonly resumableJobs: Effect.Effect<ReadonlyArray<JobRecord>, JobStoreError>
  /** False when the job is no longer pending or running (it was cancelled meanwhile). */
  readonly markRunning: (id: string, startedAt: string) => Effect.Effect<boolean, JobStoreError>
  readonly cancelPending: (id: string, at: string) => Effect.Effect<boolean, JobStoreError>
  /** Ends a pending or running job and deletes its sealed secrets; false when it had already ended. */
  readonly finishJob: (
    id: string,
    outcome: {
      readonly status: JobStatus
      readonly error: string | null
      readonly completedAt: string
      /** The job's final aggregate, stored on its row so status polls of the ended job never scan its rows. */
      readonly stats?: ResultStats | undefined
    },
  ) => Effect.Effect<boolean, JobStoreError>
  readonly saveSummary: (id: string, summary: RunSummary) => Effect.Effect<void, JobStoreError>
}

/** Result rows, their traces, and the model calls of each rollout. */
export interface ResultStoreRowsService {
  /**
   * Upserts rollouts' rows (and their traces) in one transaction: the last write of a key wins. Returns, for each
   * write in order, the row it replaced (null for a new key), so a live tally can take the old row's contribution
   * back out.
   */
  readonly upsertResults: (
    jobId: string,
    writes: ReadonlyArray<ResultWrite>,
  ) => Effect.Effect<ReadonlyArray<TallyRow | null>, JobStoreError>
  /** The highest `seq` of a job's rows (0 for none): where a resumed job's rows continue. */
  readonly maxResultSeq: (jobId: string) => Effect.Effect<number, JobStoreError>
  /**
   * Rows of a job in the viewer's order (seq, then seed and attempt) from position `offset`, each with its count of
   * model calls; with `maxSeq`, only rows up to it (those of a running job known to be committed in order).
   */
  readonly viewerRows: (
    jobId: string,
    page: { readonly offset: number; readonly limit: number; readonly maxSeq: number | null },
  ) => Effect.Effect<ReadonlyArray<{ readonly json: string; readonly calls: number }>, JobStoreError>
  /** One rollout's row, with its trace when one was stored. */
  readonly rolloutOf: (
    jobId: string,
    key: RolloutCursor,
  ) => Effect.Effect<{ readonly json: string; readonly trace: string | null } | null, JobStoreError>
  /** Every stored row of a job as JSON text, in (seed, attempt) order. */
  readonly resultRows: (jobId: string) => Effect.Effect<ReadonlyArray<string>, JobStoreError>
  readonly resultPage: (
    jobId: string,
    after: RolloutCursor | null,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<StoredRow>, JobStoreError>
  readonly tracePage: (
    jobId: string,
    after: RolloutCursor | null,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<StoredRow>, JobStoreError>
  readonly resultStats: (
    jobIds: ReadonlyArray<string>,
  ) => Effect.Effect<ReadonlyMap<string, ResultStats>, JobStoreError>
  /** One scan of a job's rows into a tally, taken once when a job (re)starts; kept up to date in memory after. */
  readonly resultTally: (jobId: string) => Effect.Effect<ResultTally, JobStoreError>

  /** The inference interceptor's records of a job's model calls (idempotent by call id). */
  readonly appendModelCalls: (jobId: string, calls: ReadonlyArray<ModelCall>) => Effect.Effect<void, JobStoreError>
  readonly modelCallsOf: (jobId: string, key: RolloutCursor) => Effect.Effect<ReadonlyArray<ModelCall>, JobStoreError>
  /** Steps of agent rollouts as they happen; a step stored again (same rollout, try and index) is kept once. */
  readonly appendSteps: (jobId: string, steps: ReadonlyArray<RolloutStep>) => Effect.Effect<void, JobStoreError>
  /** A key's steps, every try's, in the order they happened. */
  readonly stepsOf: (jobId: string, key: RolloutCursor) => Effect.Effect<ReadonlyArray<RolloutStep>, JobStoreError>
}

/** Where jobs, results, traces and keys live; one SQL client under all four parts. */
export interface JobStoreService
  extends StoreSettingsService,
    ApiKeyStoreService,
    JobRowStoreService,
    ResultStoreRowsService {}
