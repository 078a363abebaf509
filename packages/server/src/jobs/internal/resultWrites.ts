import type { EvalResult, ModelCall } from "@proctor/core"
import { type TallyRow, tallyRowOf } from "../ResultTally.js"
import { numOrNull } from "./storeRows.js"

/**
 * Rows come back in call id order (random); a rollout's calls are shown in the order they started. The sort
 * is stable and decoding puts a call's base before it, so calls started in the same millisecond keep their
 * order within a try.
 */
export const inStartOrder = (calls: Array<ModelCall>): Array<ModelCall> =>
  calls.sort((a, b) => (a.started_at < b.started_at ? -1 : a.started_at > b.started_at ? 1 : 0))

export const hasTrace = (result: EvalResult) => result.trace !== undefined && result.trace !== null

export interface StoredTallyRow {
  readonly seed: number | string
  readonly attempt: number | string
  readonly status: string
  readonly score: number | string | null
  readonly tokens: number | string | null
  readonly cost_usd: number | string | null
}

export const tallyRowOfStored = (row: StoredTallyRow): TallyRow => ({
  status: row.status,
  score: numOrNull(row.score),
  tokens: numOrNull(row.tokens),
  costUsd: numOrNull(row.cost_usd),
})

/**
 * What a group of writes does to the rows stored before it (`stored`, by key): the row each write replaces (null for a
 * new key; in order, so a key written twice replaces its own first write), and one write per key, as one INSERT may
 * touch a row only once (PostgreSQL) — the key's last result at the `seq` of its first write, as separate writes of
 * the key would have left it.
 */
export const applyWrites = <W extends { readonly result: EvalResult; readonly seq?: number | undefined }>(
  writes: ReadonlyArray<W>,
  keys: ReadonlyArray<string>,
  stored: Map<string, TallyRow>,
): { readonly replaced: ReadonlyArray<TallyRow | null>; readonly unique: ReadonlyArray<W> } => {
  // The usual group: new keys, each once.
  if (stored.size === 0 && new Set(keys).size === keys.length) {
    return { replaced: writes.map(() => null), unique: writes }
  }
  const byKey = new Map<string, W>()
  const replaced = writes.map((write, i) => {
    const key = keys[i]!
    const previous = stored.get(key) ?? null
    stored.set(key, tallyRowOf(write.result))
    const first = byKey.get(key)
    byKey.set(key, first === undefined ? write : { ...write, seq: first.seq })
    return previous
  })
  return { replaced, unique: [...byKey.values()] }
}
