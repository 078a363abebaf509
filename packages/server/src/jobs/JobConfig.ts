import {
  type ConfigSecrets,
  configFromRecord,
  type EvalRunConfig,
  type PublicEvalRunConfig,
  publicConfig,
} from "@proctor/core"
import type { Either } from "effect"

/** What the `jobs.config_json` column and the API's `config` hold: core's secret-free config plus synth-ai's `mode`. */
export interface StoredJobConfig extends PublicEvalRunConfig {
  readonly mode: string | null
}

/**
 * What a job needs to run that must not sit in the database in clear: core's `ConfigSecrets`, the task-app key
 * and the policy and env tables as given (`publicConfig` drops secret-looking keys such as `policy.api_key`,
 * which the task app may need). Sealed with the server secret while the job can still run, deleted when it ends.
 */
export type JobSecrets = ConfigSecrets

export const storedConfigOf = (config: EvalRunConfig, mode: string | null): StoredJobConfig => ({
  ...publicConfig(config),
  mode,
})

/** Rebuilds the runnable config of a stored job (on start and on every resume), or names what is wrong with it. */
export const runConfigOf = (
  stored: StoredJobConfig,
  secrets: JobSecrets | null,
): Either.Either<EvalRunConfig, string> => configFromRecord(stored, secrets ?? {})
