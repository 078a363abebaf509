import { existsSync } from "node:fs"
import { roundUsd } from "../../internal/roundUsd.js"
import type { RolloutKey } from "../../result/EvalResult.js"
import type { CallSpending } from "../ResultStore.js"
import { forEachLine } from "./forEachLine.js"

interface StoredUsage {
  readonly seed?: unknown
  readonly attempt?: unknown
  readonly usage?: { readonly total_tokens?: unknown } | null
  readonly cost_usd?: unknown
  readonly role?: unknown
  readonly cached?: unknown
  readonly avoided_cost_usd?: unknown
}

const finite = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null)

/**
 * What every call in `model_calls.jsonl` spent, tries that failed and rollouts that errored included; the
 * part of it spent on rollouts `errored` names. A line that is no call (a write cut short) is left out. The
 * judge's calls (`role = "judge"`) are counted apart, in `judge`.
 */
export const sumCallSpending = async (path: string, errored: (key: RolloutKey) => boolean): Promise<CallSpending> => {
  const spending = {
    calls: 0,
    tokens: 0,
    metered: 0,
    costUsd: 0,
    priced: 0,
    errorTokens: 0,
    errorCostUsd: 0,
    cachedCalls: 0,
    avoidedCostUsd: 0,
    avoidedPriced: 0,
  }
  const judge = { calls: 0, tokens: 0, metered: 0, costUsd: 0, priced: 0 }
  const judgedRollouts = new Set<string>()
  if (!existsSync(path)) return spending
  await forEachLine(path, (bytes) => {
    let call: StoredUsage
    try {
      call = JSON.parse(bytes.toString("utf8")) as StoredUsage
    } catch {
      return
    }
    const seed = finite(call.seed)
    const attempt = finite(call.attempt)
    if (seed === null || attempt === null) return
    if (call.role === "judge") {
      judge.calls++
      judgedRollouts.add(`${seed}/${attempt}`)
      const tokens = finite(call.usage?.total_tokens)
      if (tokens !== null) {
        judge.tokens += tokens
        judge.metered++
      }
      const cost = finite(call.cost_usd)
      if (cost !== null) {
        judge.costUsd += cost
        judge.priced++
      }
      return
    }
    spending.calls++
    const onError = errored({ seed, attempt })
    const tokens = finite(call.usage?.total_tokens)
    if (tokens !== null) {
      spending.tokens += tokens
      spending.metered++
      if (onError) spending.errorTokens += tokens
    }
    if (call.cached === true) {
      spending.cachedCalls++
      const avoided = finite(call.avoided_cost_usd)
      if (avoided !== null) {
        spending.avoidedCostUsd += avoided
        spending.avoidedPriced++
      }
    }
    const cost = finite(call.cost_usd)
    if (cost !== null) {
      spending.costUsd += cost
      spending.priced++
      if (onError) spending.errorCostUsd += cost
    }
  })
  return {
    ...spending,
    costUsd: roundUsd(spending.costUsd),
    errorCostUsd: roundUsd(spending.errorCostUsd),
    avoidedCostUsd: roundUsd(spending.avoidedCostUsd),
    ...(judge.calls === 0
      ? {}
      : { judge: { ...judge, costUsd: roundUsd(judge.costUsd), rollouts: judgedRollouts.size } }),
  }
}
