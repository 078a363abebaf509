import type { LlmContentPart, LlmMessage, ToolCallSpec } from "@proctor/core"
import { duration, integer, MISSING, prettyJson, usd } from "./format.js"
import type { TranscriptTurn } from "./transcript.js"

const toolCallText = (data: unknown): string => {
  const record = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>
  const fn = (typeof record.function === "object" && record.function !== null ? record.function : record) as Record<
    string,
    unknown
  >
  const args = typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? record.input ?? {})
  return `${String(fn.name ?? "tool")}(${args})`
}

const Part = ({ part }: { part: LlmContentPart }) => {
  switch (part.type) {
    case "text":
    case "reasoning":
    case "thinking":
    case "refusal":
      return <pre class={`part part-${part.type}`}>{part.text ?? ""}</pre>
    case "tool_call":
    case "function_call":
    case "tool_use":
      return <pre class="part part-tool-call">{toolCallText(part.data)}</pre>
    case "tool_result":
      return <pre class="part part-tool-result">{part.text ?? prettyJson(part.data)}</pre>
    case "image":
      return <p class="part">[image{part.uri === undefined ? "" : ` ${part.uri.slice(0, 80)}`}]</p>
    default:
      return <pre class="part part-json">{prettyJson(part.data ?? part) ?? ""}</pre>
  }
}

const Message = ({ message }: { message: LlmMessage }) => (
  <div class={`message role-${message.role}`} data-testid="model-message" data-role={message.role}>
    <div class="role">
      {message.role}
      {message.name === undefined ? null : <span> · {message.name}</span>}
      {message.tool_call_id === undefined ? null : <span class="muted"> · result of {message.tool_call_id}</span>}
    </div>
    {message.parts.length === 0 ? (
      <p class="muted">(empty)</p>
    ) : (
      message.parts.map((part, index) => <Part key={index} part={part} />)
    )}
  </div>
)

const ToolCalls = ({ calls }: { calls: ReadonlyArray<ToolCallSpec> }) =>
  calls.length === 0 ? null : (
    <div class="message role-assistant tool-calls" data-testid="tool-calls">
      <div class="role">assistant · tool calls</div>
      {calls.map((call) => (
        <pre key={call.index} class="part part-tool-call">
          {call.name}({call.arguments_json}){call.call_id === null ? "" : `  # ${call.call_id}`}
        </pre>
      ))}
    </div>
  )

const CallHeader = ({ turn, index }: { turn: TranscriptTurn; index: number }) => {
  const call = turn.call
  if (call === null) return <div class="call-head">model call {index + 1}</div>
  const usage = call.usage
  return (
    <div class="call-head" data-testid="call-head">
      <b>model call {index + 1}</b> · {call.model ?? MISSING} · {call.api}
      {call.stream ? " · streamed" : ""} · {duration(call.latency_ms)}
      {call.ttft_ms === null ? "" : ` · TTFT ${duration(call.ttft_ms)}`} · tokens {integer(usage?.prompt_tokens)} in /{" "}
      {integer(usage?.completion_tokens)} out
      {usage?.cached_tokens ? ` (${integer(usage.cached_tokens)} cached)` : ""} ·{" "}
      {call.cost_usd === null ? "unpriced" : usd(call.cost_usd)}
      {call.finish_reason === null ? "" : ` · ${call.finish_reason}`}
      {call.outcome === "ok" ? (
        ""
      ) : (
        <span class="bad">
          {" "}
          · {call.outcome}
          {call.status === null ? "" : ` HTTP ${call.status}`}
          {call.error === null ? "" : `: ${call.error}`}
        </span>
      )}
    </div>
  )
}

/** A rollout's model calls in order: each call's new messages, the answer, its tool calls, and its numbers. */
export const Transcript = ({ turns }: { turns: ReadonlyArray<TranscriptTurn> }) =>
  turns.length === 0 ? (
    <p class="empty">No model calls recorded.</p>
  ) : (
    <ol class="transcript" data-testid="transcript">
      {turns.map((turn, index) => (
        <li key={index} class="turn" data-testid="model-call">
          <CallHeader turn={turn} index={index} />
          {turn.sent.map((message, i) => (
            <Message key={`s${i}`} message={message} />
          ))}
          {turn.answer
            // An answer that is only tool calls shows as its tool calls, not as an empty message before them.
            .filter((message) => message.parts.length > 0 || turn.toolCalls.length === 0)
            .map((message, i) => (
              <Message key={`a${i}`} message={message} />
            ))}
          <ToolCalls calls={turn.toolCalls} />
        </li>
      ))}
    </ol>
  )
