import type { InterceptedLimit } from "../Interceptor.js"
import type { Session } from "./Session.js"

/** The limit a rollout's spending has gone over, if any: strictly over, since a budget spent exactly is not exceeded. */
const overBudget = (session: Session): "max_tokens" | "max_cost" | null => {
  const limits = session.budget?.settings()
  if (limits === undefined) return null
  if (limits.maxTokens !== null && session.spentTokens > limits.maxTokens) return "max_tokens"
  if (limits.maxCost !== null && session.spentUsd > limits.maxCost) return "max_cost"
  return null
}

/** Which limit refuses a new call: one already reached, or a budget spent to the last token or cent. */
export const refusingLimit = (session: Session): InterceptedLimit | null => {
  if (session.limitReached !== null || session.budget === null) return session.limitReached
  const limits = session.budget.settings()
  if (limits.maxTokens !== null && session.spentTokens >= limits.maxTokens) return "max_tokens"
  if (limits.maxCost !== null && session.spentUsd >= limits.maxCost) return "max_cost"
  return null
}

/**
 * Counts a call the interceptor is about to forward as one of the rollout's turns, where the rollout counts turns
 * that way: "max_turns" when it would be one past the limit.
 */
export const refusingTurn = (session: Session): "max_turns" | null =>
  session.budget?.recordCall?.() === false ? "max_turns" : null

export const describeLimit = (session: Session, limit: InterceptedLimit): string => {
  const limits = session.budget?.settings()
  if (limit === "max_turns") return `this rollout's turns are spent: ${limits?.maxTurns} model calls of max_turns made`
  return limit === "max_tokens"
    ? `this rollout's token budget is spent: ${session.spentTokens} of max_tokens ${limits?.maxTokens} used`
    : `this rollout's cost budget is spent: $${session.spentUsd} of max_cost $${limits?.maxCost} used`
}

/** Marks the limit reached and tells the rollout, once. */
export const reachLimit = (session: Session, limit: InterceptedLimit): void => {
  if (session.limitReached !== null) return
  session.limitReached = limit
  try {
    session.budget?.reach(limit)
  } catch {
    // The rollout's own observer must not break the proxy.
  }
}

/** Counts a finished call against the budget; reaches the limit when the call took the rollout over it. */
export const spend = (session: Session, tokens: number, usd: number | null): void => {
  if (session.budget === null) return
  session.spentTokens += tokens
  if (usd !== null) session.spentUsd += usd
  const over = overBudget(session)
  if (over !== null) reachLimit(session, over)
}
