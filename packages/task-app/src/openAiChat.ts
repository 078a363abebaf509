import { chatCompletionsUrl } from "@proctor/core"

export interface ToolCall {
  readonly id: string
  readonly type: "function"
  readonly function: { readonly name: string; readonly arguments: string }
}

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant" | "tool"
  readonly content: string | null
  readonly tool_calls?: ReadonlyArray<ToolCall>
  readonly tool_call_id?: string
}

export interface ChatUsage {
  readonly prompt_tokens?: number
  readonly completion_tokens?: number
  readonly total_tokens?: number
  readonly [key: string]: unknown
}

export interface ChatCompletion {
  readonly id?: string
  readonly model?: string
  readonly choices: ReadonlyArray<{
    readonly index?: number
    readonly message: ChatMessage
    readonly finish_reason?: string | null
  }>
  readonly usage?: ChatUsage
  readonly [key: string]: unknown
}

export type ChatCompletionErrorReason = "Unreachable" | "HttpStatus" | "MalformedBody"

/** A model call that did not produce a completion; never carries the API key. */
export class ChatCompletionError extends Error {
  override readonly name = "ChatCompletionError"
  readonly reason: ChatCompletionErrorReason
  /** The upstream status, when it answered. */
  readonly status: number | undefined
  /** The upstream `Retry-After`, passed on so a task app can hand it to its own caller. */
  readonly retryAfter: string | undefined
  readonly body: string | undefined

  constructor(options: {
    readonly reason: ChatCompletionErrorReason
    readonly message: string
    readonly status?: number | undefined
    readonly retryAfter?: string | undefined
    readonly body?: string | undefined
    readonly cause?: unknown
  }) {
    super(options.message, { cause: options.cause })
    this.reason = options.reason
    this.status = options.status
    this.retryAfter = options.retryAfter
    this.body = options.body
  }

  /** Whether asking again can help: the model was unreachable, overloaded, rate limiting or garbled. */
  get retryable(): boolean {
    if (this.reason !== "HttpStatus") return true
    return this.status === 429 || (this.status !== undefined && this.status >= 500)
  }
}

export interface ChatCompletionOptions {
  /** The policy's `inference_url` in any synth-ai shape; the correlation id in it is kept. */
  readonly inferenceUrl: string
  readonly body: Readonly<Record<string, unknown>>
  readonly apiKey?: string | undefined
  readonly signal?: AbortSignal | undefined
}

const snippet = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text)

const isCompletion = (u: unknown): u is ChatCompletion =>
  typeof u === "object" && u !== null && Array.isArray((u as { choices?: unknown }).choices)

/**
 * One OpenAI-compatible chat completion. Aborting `signal` rejects with the abort reason, untouched, so a
 * caller can tell "I gave up" from "the model failed".
 */
export const chatCompletion = async (options: ChatCompletionOptions): Promise<ChatCompletion> => {
  const url = chatCompletionsUrl(options.inferenceUrl)
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" }
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`
  let response: Response
  let text: string
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify(options.body),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
    text = await response.text()
  } catch (cause) {
    if (options.signal?.aborted) throw cause
    const detail = (cause as { cause?: { code?: string } }).cause?.code ?? String((cause as Error).message ?? cause)
    throw new ChatCompletionError({ reason: "Unreachable", message: `model at ${url} unreachable (${detail})`, cause })
  }
  if (!response.ok) {
    throw new ChatCompletionError({
      reason: "HttpStatus",
      status: response.status,
      retryAfter: response.headers.get("retry-after") ?? undefined,
      body: text,
      message: `model at ${url} answered ${response.status}: ${snippet(text)}`,
    })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  if (!isCompletion(json)) {
    throw new ChatCompletionError({
      reason: "MalformedBody",
      status: response.status,
      body: text,
      message: `model at ${url} answered ${response.status} without a chat completion: ${snippet(text)}`,
    })
  }
  return json
}
