import { Effect } from "effect"
import type { ModelApi } from "../result/ModelCall.js"
import { requestBody, type ToolSpec } from "./internal/agentApis.js"
import { callModel, failed } from "./internal/callModel.js"

export type { ModelReply, ToolCall, ToolSpec } from "./internal/agentApis.js"

/** One prompt: an optional system message, the user's message, the model and settings passed as given. */
export interface PromptRequest {
  readonly model: string
  readonly system: string
  readonly user: string
  /** Sampling settings sent as given (`temperature`, `max_tokens`, …): the policy's table. */
  readonly settings?: Readonly<Record<string, unknown>>
  /** Function tools offered to the model (none by default). */
  readonly tools?: ReadonlyArray<ToolSpec>
}

/**
 * Asks a model one prompt, in the API's own shape (chat completions, Responses or Anthropic messages, as the built-in
 * agent speaks them), through the rollout's interceptor URL. A 429 or 5xx is a retried system error; another 4xx, a
 * limit the interceptor refused the call for, or a body that is not the API's answer, is the rollout's error.
 */
export const promptTurn = (url: string, api: ModelApi, request: PromptRequest) =>
  callModel(url, api, {
    ...(requestBody(api, {
      model: request.model,
      system: request.system,
      turns: [{ role: "user", text: request.user }],
      tools: request.tools ?? [],
    }) as Record<string, unknown>),
    ...request.settings,
  }).pipe(
    Effect.flatMap((called) =>
      called._tag === "Reply"
        ? Effect.succeed(called.reply)
        : Effect.fail(failed(`the interceptor refused the call: the rollout reached its ${called.stop}`, false)),
    ),
  )
