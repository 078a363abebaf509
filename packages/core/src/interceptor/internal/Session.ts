import type { Dispatcher } from "undici"
import type { ModelApi, ModelCall, TokenUsage } from "../../result/ModelCall.js"
import type { InterceptedLimit, RolloutBudget } from "../Interceptor.js"
import type { GatedUpstream } from "../ModelRateGate.js"
import type { ResponseStore } from "./ResponseStore.js"

/** Where one upstream base URL sends each API, over a keep-alive pool shared by every rollout on its origin. */
export interface Target {
  readonly origin: string
  readonly dispatcher: Dispatcher
  /** Path and query of each API's endpoint on the origin. */
  readonly paths: { readonly [K in ModelApi]: string }
  readonly inferredProvider: string | null
}

/** Something in flight that a closing rollout (or a shutting-down interceptor) must stop. */
export interface Cancellable {
  readonly cancel: (reason: string, cutClient: boolean) => void
}

/** One open rollout: its identity, its upstream, and the calls made under its correlation id. */
export interface Session {
  readonly cid: string
  readonly runId: string
  readonly rolloutId: string
  readonly seed: number
  readonly attempt: number
  readonly target: Target
  readonly apiKey: string | null
  readonly provider: string | null
  /** Set for a judge's calls: the grader they are made for. */
  readonly judgeOf: string | null
  /** Asked before each call is sent, told of each 429: shared by every rollout calling this upstream with this key. */
  readonly gate: GatedUpstream
  /** Calls started so far: the next call's index (its place in start order). */
  started: number
  /** Finished calls by index, when the interceptor keeps them for `close`. */
  readonly calls: Array<ModelCall>
  readonly inFlight: Set<Cancellable>
  open: boolean
  /** The rollout's token and cost budget (null: none), what its finished calls spent, and the limit it reached. */
  readonly budget: RolloutBudget | null
  spentTokens: number
  spentUsd: number
  limitReached: InterceptedLimit | null
}

export interface Recorder {
  readonly record: (session: Session, slot: number, call: ModelCall) => void
  readonly price: (provider: string | null, model: string | null, usage: TokenUsage | null) => number | null
  /** Where answers are cached; null when the response cache is off. */
  readonly cache: ResponseStore | null
  /** Holds a cache write until it settles, so shutting down waits for it (its failure costs only the saving). */
  readonly pending: (write: Promise<void>) => void
}
