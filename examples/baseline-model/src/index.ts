export type { Completion, Usage } from "./completion.js"
export { guessExpression } from "./mathPolicy.js"
export type { ChatMessage, ChatRequest, ToolCall, ToolDefinition } from "./openai.js"
export {
  type BaselineModel,
  type BaselineModelOptions,
  createBaselineModel,
  LATENCY_HEADER,
  type ListenOptions,
  type RunningBaselineModel,
} from "./server.js"
export { completionTokens, countTokens, promptTokens } from "./tokens.js"
