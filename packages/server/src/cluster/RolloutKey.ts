/** A rollout of a job as a set member: `seed:attempt`. */
export type RolloutKeyText = `${number}:${number}`

export const rolloutKeyText = (seed: number, attempt: number): RolloutKeyText => `${seed}:${attempt}`

/** What a queued rollout carries through Redis: which rollout, never a secret (workers read the job from PostgreSQL). */
export interface RolloutMessage {
  readonly job_id: string
  readonly seed: number
  readonly attempt: number
  /** Dispatched again after it was lost: a worker may have started it already (its task app may still hold it). */
  readonly redelivery?: true
}

/**
 * The BullMQ job id of a rollout, `${job_id}:${seed}:${attempt}`: adding a rollout that is already queued or running
 * is a no-op, so re-dispatching is always safe. (BullMQ accepts a colon in a custom id only as exactly three parts;
 * job ids never contain one.)
 */
export const queueJobId = (message: RolloutMessage): string => `${message.job_id}:${message.seed}:${message.attempt}`

/** The planned rollouts of a job in the runner's order: each seed's attempts together. */
export function* plannedKeys(seeds: ReadonlyArray<number>, attempts: number): Generator<RolloutKeyText> {
  for (const seed of seeds) for (let attempt = 0; attempt < attempts; attempt++) yield rolloutKeyText(seed, attempt)
}

export const keyParts = (key: RolloutKeyText): { readonly seed: number; readonly attempt: number } => {
  const colon = key.indexOf(":")
  return { seed: Number(key.slice(0, colon)), attempt: Number(key.slice(colon + 1)) }
}
