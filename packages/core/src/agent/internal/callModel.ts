import { Effect } from "effect"
import { postModel } from "../../internal/modelPost.js"
import type { ModelApi } from "../../result/ModelCall.js"
import type { StopReason } from "../../result/RolloutStep.js"
import { SolverError } from "../../solver/Solver.js"
import { stopReasonOfRefusal } from "../AgentLimits.js"
import { type ModelReply, parseReply, requestHeaders } from "./agentApis.js"
import { STAND_IN_KEY } from "./standInKey.js"

export const failed = (message: string, retryable: boolean) => new SolverError({ reason: "Failed", message, retryable })

export type Called =
  | { readonly _tag: "Reply"; readonly reply: ModelReply }
  | { readonly _tag: "Limit"; readonly stop: StopReason }

/**
 * One model call in the API's own shape, through the rollout's interceptor: its reply, or the limit the
 * interceptor refused it for. A 429 or 5xx is a retried system error; another 4xx, or a body that is not the
 * API's answer, is the rollout's error.
 */
export const callModel = (url: string, api: ModelApi, body: unknown) =>
  Effect.tryPromise({
    try: (signal) => postModel(url, requestHeaders(api, STAND_IN_KEY), JSON.stringify(body), signal),
    catch: (error) => failed(`the model at ${url} is unreachable: ${String(error)}`, true),
  }).pipe(
    Effect.flatMap(({ status, text }): Effect.Effect<Called, SolverError> => {
      const limit = stopReasonOfRefusal(status, text)
      if (limit !== null) return Effect.succeed({ _tag: "Limit", stop: limit })
      if (status >= 400) {
        return Effect.fail(
          failed(`the model answered HTTP ${status}: ${text.slice(0, 200)}`, status >= 500 || status === 429),
        )
      }
      let parsed: unknown = null
      try {
        parsed = JSON.parse(text)
      } catch {
        // Reported below as an answer that is not the API's.
      }
      const reply = parseReply(api, parsed)
      return reply === null
        ? Effect.fail(failed(`the model's answer is not a ${api} answer: ${text.slice(0, 200)}`, false))
        : Effect.succeed({ _tag: "Reply", reply })
    }),
  )
