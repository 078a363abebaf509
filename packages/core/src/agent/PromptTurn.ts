import { Effect } from "effect"
import type { ModelApi } from "../result/ModelCall.js"
import { SolverError } from "../solver/Solver.js"
import { type ModelReply, parseReply, requestBody, requestHeaders } from "./internal/agentApis.js"
import { STAND_IN_KEY } from "./internal/standInKey.js"

export type { ModelReply } from "./internal/agentApis.js"

/** One prompt: an optional system message, the user's message, the model and settings passed as given. */
export interface PromptRequest {
  readonly model: string
  readonly system: string
  readonly user: string
  /** Sampling settings sent as given (`temperature`, `max_tokens`, …): the policy's table. */
  readonly settings?: Readonly<Record<string, unknown>>
}

const failed = (message: string, retryable: boolean) => new SolverError({ reason: "Failed", message, retryable })

/**
 * Asks a model one prompt, in the API's own shape (chat completions, Responses or Anthropic messages, as the built-in
 * agent speaks them), through the rollout's interceptor URL. A 429 or 5xx is a retried system error; another 4xx,
 * or a body that is not the API's answer, is the rollout's error.
 */
export const promptTurn = (url: string, api: ModelApi, request: PromptRequest) =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(url, {
        method: "POST",
        headers: requestHeaders(api, STAND_IN_KEY),
        body: JSON.stringify({
          ...(requestBody(api, {
            model: request.model,
            system: request.system,
            turns: [{ role: "user", text: request.user }],
            tools: [],
          }) as Record<string, unknown>),
          ...request.settings,
        }),
        signal,
      })
      return { status: response.status, text: await response.text() }
    },
    catch: (error) => failed(`the model at ${url} is unreachable: ${String(error)}`, true),
  }).pipe(
    Effect.flatMap(({ status, text }): Effect.Effect<ModelReply, SolverError> => {
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
        : Effect.succeed(reply)
    }),
  )
