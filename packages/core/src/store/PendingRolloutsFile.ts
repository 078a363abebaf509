import { closeSync, existsSync, openSync, readFileSync, writeSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer, Option } from "effect"
import {
  type PendingRollout,
  PendingRollouts,
  type PendingRolloutsService,
  pendingKeyOf,
} from "../taskApp/PendingRollouts.js"
import { endLastLine } from "./internal/endLastLine.js"
import { storeIoError } from "./ResultStore.js"

/**
 * The run directory's journal of task-app rollouts answered in the async form: a `hold` line (the app's rollout id,
 * where to poll it, when it was accepted) is written before the first poll, a `release` line when it settles. Read
 * back at the start of a session, the held ones are polled again instead of started over (`proctor eval --resume`
 * after a kill -9). Each line is one synchronous write, as the results journal's are.
 */
export const PENDING_ROLLOUTS_FILE = "async_rollouts.jsonl"

interface HoldLine extends PendingRollout {
  readonly seed: number
  readonly attempt: number
}

type Line =
  | ({ readonly op: "hold" } & HoldLine)
  | { readonly op: "release"; readonly seed: number; readonly attempt: number }

const isLine = (value: unknown): value is Line => {
  if (typeof value !== "object" || value === null) return false
  const line = value as Record<string, unknown>
  if (typeof line.seed !== "number" || typeof line.attempt !== "number") return false
  if (line.op === "release") return true
  return (
    line.op === "hold" &&
    typeof line.appRolloutId === "string" &&
    typeof line.statusPath === "string" &&
    typeof line.acceptedAtMs === "number"
  )
}

/** The rollouts held at the end of the file: each key's last line decides. A line that is not one is skipped. */
const readHeld = (path: string): Map<string, PendingRollout> => {
  const held = new Map<string, PendingRollout>()
  if (!existsSync(path)) return held
  for (const text of readFileSync(path, "utf8").split("\n")) {
    if (text.trim() === "") continue
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      continue
    }
    if (!isLine(parsed)) continue
    const key = pendingKeyOf(parsed)
    if (parsed.op === "release") held.delete(key)
    else
      held.set(key, {
        appRolloutId: parsed.appRolloutId,
        statusPath: parsed.statusPath,
        acceptedAtMs: parsed.acceptedAtMs,
      })
  }
  return held
}

export const makePendingRolloutsFile = (dir: string) => {
  const path = join(dir, PENDING_ROLLOUTS_FILE)
  return Effect.acquireRelease(
    Effect.try({
      try: () => {
        endLastLine(path)
        return { held: readHeld(path), fd: null as number | null }
      },
      catch: storeIoError(`cannot read ${path}`),
    }),
    (state) => Effect.sync(() => state.fd !== null && closeSync(state.fd)),
  ).pipe(
    Effect.map((state): PendingRolloutsService => {
      const append = (line: Line) =>
        Effect.try({
          try: () => {
            // Opened at the first async rollout: runs of sync apps keep no empty file.
            state.fd ??= openSync(path, "a")
            writeSync(state.fd, `${JSON.stringify(line)}\n`)
          },
          catch: storeIoError(`cannot append to ${path}`),
        })
      return {
        held: (key) => Effect.sync(() => Option.fromNullable(state.held.get(pendingKeyOf(key)))),
        hold: (key, pending) =>
          Effect.zipRight(
            append({ op: "hold", seed: key.seed, attempt: key.attempt, ...pending }),
            Effect.sync(() => void state.held.set(pendingKeyOf(key), pending)),
          ),
        release: (key) =>
          Effect.suspend(() =>
            state.held.delete(pendingKeyOf(key))
              ? append({ op: "release", seed: key.seed, attempt: key.attempt })
              : Effect.void,
          ),
      }
    }),
  )
}

export const PendingRolloutsFileLayer = (dir: string) => Layer.scoped(PendingRollouts, makePendingRolloutsFile(dir))
