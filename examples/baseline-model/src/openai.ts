/** The subset of OpenAI's chat-completions request this server reads; other fields are accepted and ignored. */

export interface ToolCall {
  readonly id: string
  readonly type: "function"
  readonly function: { readonly name: string; readonly arguments: string }
}

export interface ChatMessage {
  readonly role: string
  readonly content?: unknown
  readonly tool_calls?: ReadonlyArray<ToolCall>
  readonly tool_call_id?: string
  readonly name?: string
}

export interface ToolDefinition {
  readonly type: string
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: unknown }
}

export interface ChatRequest {
  readonly model?: string
  readonly messages: ReadonlyArray<ChatMessage>
  readonly tools?: ReadonlyArray<ToolDefinition>
  readonly tool_choice?: unknown
  readonly temperature?: number
  /** OpenAI's best-effort determinism seed; the judge policy draws its sample noise from it. */
  readonly seed?: number
  readonly max_tokens?: number
  readonly max_completion_tokens?: number
  readonly stream?: boolean
  readonly stream_options?: { readonly include_usage?: boolean }
}

export interface OpenAIError {
  readonly status: number
  readonly body: {
    readonly error: {
      readonly message: string
      readonly type: string
      readonly param: string | null
      readonly code: string | null
    }
  }
}

export const openAIError = (
  status: number,
  message: string,
  param: string | null = null,
  code: string | null = null,
): OpenAIError => ({
  status,
  body: { error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", param, code } },
})

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const invalidType = (param: string, expected: string): OpenAIError =>
  openAIError(400, `Invalid type for '${param}': expected ${expected}.`, param, "invalid_type")

/** Message `content` may be a string, null, or an array of parts; only text parts carry tokens here. */
export const messageText = (message: ChatMessage): string => {
  const { content } = message
  if (typeof content === "string") return content
  if (!Array.isArray(content)) return ""
  return content
    .map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
    .filter((text) => text !== "")
    .join("\n")
}

const checkMessage = (message: unknown, index: number): OpenAIError | undefined => {
  const at = `messages[${index}]`
  if (!isRecord(message)) return invalidType(at, "an object")
  if (typeof message.role !== "string") return invalidType(`${at}.role`, "a string")
  const { content, tool_calls } = message
  if (content !== undefined && content !== null && typeof content !== "string" && !Array.isArray(content)) {
    return invalidType(`${at}.content`, "a string, an array of content parts or null")
  }
  if (tool_calls === undefined) return undefined
  if (!Array.isArray(tool_calls)) return invalidType(`${at}.tool_calls`, "an array")
  const badCall = tool_calls.findIndex(
    (call) =>
      !isRecord(call) ||
      !isRecord(call.function) ||
      typeof call.function.name !== "string" ||
      typeof call.function.arguments !== "string",
  )
  return badCall === -1 ? undefined : invalidType(`${at}.tool_calls[${badCall}]`, "a function call")
}

const checkTools = (tools: unknown): OpenAIError | undefined => {
  if (tools === undefined || tools === null) return undefined
  if (!Array.isArray(tools)) return invalidType("tools", "an array")
  const bad = tools.findIndex(
    (tool) => !isRecord(tool) || !isRecord(tool.function) || typeof tool.function.name !== "string",
  )
  return bad === -1 ? undefined : invalidType(`tools[${bad}]`, "a function tool")
}

const checkLimits = (body: Record<string, unknown>): OpenAIError | undefined => {
  for (const param of ["max_tokens", "max_completion_tokens"]) {
    const value = body[param]
    if (value !== undefined && value !== null && !(Number.isInteger(value) && (value as number) > 0)) {
      return invalidType(param, "a positive integer")
    }
  }
  return undefined
}

export type ParsedRequest = { readonly request: ChatRequest } | { readonly error: OpenAIError }

/** Validates the raw body text just enough that the policy and the tokenizer can trust its shape. */
export const parseChatRequest = (raw: string): ParsedRequest => {
  const fail = (error: OpenAIError): ParsedRequest => ({ error })
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return fail(
      openAIError(
        400,
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
      ),
    )
  }
  if (!isRecord(body)) return fail(invalidType("body", "a JSON object"))
  if (body.messages === undefined) {
    return fail(openAIError(400, "Missing required parameter: 'messages'.", "messages", "missing_required_parameter"))
  }
  if (!Array.isArray(body.messages)) return fail(invalidType("messages", "an array"))
  if (body.messages.length === 0) {
    return fail(openAIError(400, "Invalid 'messages': empty array.", "messages", "empty_array"))
  }
  const error =
    body.messages.map(checkMessage).find((found) => found !== undefined) ??
    checkTools(body.tools) ??
    checkLimits(body) ??
    (body.model !== undefined && typeof body.model !== "string" ? invalidType("model", "a string") : undefined)
  return error === undefined ? { request: body as unknown as ChatRequest } : fail(error)
}
