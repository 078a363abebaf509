import type { ModelApi, TokenUsage } from "../../result/ModelCall.js"

/** What one call produced, read from a JSON body or reassembled from a stream. */
export interface CallSummary {
  readonly model: string | null
  readonly message: unknown
  readonly usage: TokenUsage | null
  readonly finishReason: string | null
  /** An error the upstream reported inside a 2xx answer (an SSE `error` event, a failed response). */
  readonly error: string | null
}

export const EMPTY_SUMMARY: CallSummary = { model: null, message: null, usage: null, finishReason: null, error: null }

/** Flags an assembler returns per event. */
export const TOKEN = 1
/** The event must not reach the client (the usage chunk the interceptor asked for on the client's behalf). */
export const DROP = 2

/** Reassembles a streamed answer event by event, on the side of the pass-through. */
export interface StreamAssembler {
  /** Reads one event's data; returns `TOKEN` when it carried model output, `DROP` when the client must not see it. */
  readonly event: (name: string | null, data: string) => number
  readonly summary: () => CallSummary
}

export interface ApiAdapter {
  readonly api: ModelApi
  readonly fromJson: (body: unknown) => CallSummary
  /** `dropUsageChunk`: the client did not ask for the usage chunk; the interceptor did. */
  readonly assembler: (dropUsageChunk: boolean) => StreamAssembler
}
