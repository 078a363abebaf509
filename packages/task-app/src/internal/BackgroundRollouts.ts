import { randomUUID } from "node:crypto"
import { errorEnvelope, TaskAppHttpError } from "../TaskAppHttpError.js"

type Finished =
  | { readonly status: "completed"; readonly response: object }
  | { readonly status: "failed"; readonly error: { readonly code: string; readonly message: string } }
  | { readonly status: "terminated"; readonly reason: string }

interface Entry {
  readonly controller: AbortController
  finished: Finished | null
}

/** The answer to `GET /rollouts/{id}`: the containers contract's `status`, and the result once completed. */
export type RolloutState = Record<string, unknown> & { readonly rollout_id: string; readonly status: string }

const stateOf = (id: string, entry: Entry): RolloutState => {
  const finished = entry.finished
  if (finished === null) return { rollout_id: id, status: "running", terminated: false }
  switch (finished.status) {
    case "completed":
      return { ...finished.response, rollout_id: id, status: "completed", terminated: true }
    case "failed":
      return { rollout_id: id, status: "failed", terminated: true, error: finished.error }
    case "terminated":
      return { rollout_id: id, status: "terminated", terminated: true, aborted: true, reason: finished.reason }
  }
}

const failureOf = (error: unknown) => {
  if (error instanceof TaskAppHttpError) return errorEnvelope(error.code, error.message).detail.error
  return {
    code: "rollout_failed",
    message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  }
}

/**
 * Rollouts a task app runs in the background (`rolloutMode: "async"`): started by `POST /rollout`, asked about
 * with `GET /rollouts/{id}`, stopped with `POST /rollouts/{id}/terminate`. A settled rollout's answer is kept
 * `retentionMs`, long enough for a caller that polls, or one restarted and re-attaching, to read it.
 */
export const makeBackgroundRollouts = (retentionMs: number) => {
  const entries = new Map<string, Entry>()
  const forgetLater = (id: string) => setTimeout(() => entries.delete(id), retentionMs).unref()

  const settle = (id: string, entry: Entry, finished: Finished) => {
    // A rollout terminated while its handler still ran keeps that answer: the handler's result comes too late.
    if (entry.finished !== null) return
    entry.finished = finished
    forgetLater(id)
  }

  return {
    /** Starts `run` in the background; its id is what `POST /rollout` answers. */
    start: (run: (signal: AbortSignal) => Promise<object>, onFailure: (error: unknown) => void): string => {
      const id = randomUUID()
      const entry: Entry = { controller: new AbortController(), finished: null }
      entries.set(id, entry)
      run(entry.controller.signal).then(
        (response) => settle(id, entry, { status: "completed", response }),
        (error: unknown) => {
          if (entry.finished === null) onFailure(error)
          settle(id, entry, { status: "failed", error: failureOf(error) })
        },
      )
      return id
    },
    state: (id: string): RolloutState | undefined => {
      const entry = entries.get(id)
      return entry === undefined ? undefined : stateOf(id, entry)
    },
    terminate: (id: string, reason: string): RolloutState | undefined => {
      const entry = entries.get(id)
      if (entry === undefined) return undefined
      if (entry.finished === null) {
        settle(id, entry, { status: "terminated", reason })
        entry.controller.abort()
      }
      return stateOf(id, entry)
    },
    /** The app is closing: every running handler is told to stop. */
    abortAll: () => {
      for (const [id, entry] of entries) {
        if (entry.finished === null) settle(id, entry, { status: "terminated", reason: "the task app closed" })
        entry.controller.abort()
      }
    },
  }
}
