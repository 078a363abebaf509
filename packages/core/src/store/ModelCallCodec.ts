import { Either } from "effect"
import type { ModelApi, ModelCall } from "../result/ModelCall.js"

/**
 * How model calls are stored (`model_calls.jsonl`, the job server's `model_calls` table) so a rollout's
 * storage grows with its turns, not with their square. A client resends the whole conversation on every
 * call; stored, a call keeps only what is new since the previous call of its rollout:
 *
 * - its conversation (`messages`, or the Responses API's `input`) holds only the entries after the first
 *   `keep` entries of the base's conversation followed by the base's answer;
 * - each request member listed in `same` (tools, system prompt, …) is `null`, standing for the base's.
 *
 * `request_delta: { base, keep, same? }` names the base (the previous call of the same rollout, by
 * `call_id`). The prefix is measured by exact JSON equality, entry by entry: a client that rewrites its
 * history shares a shorter prefix (down to none, the full list), and reconstruction is always exact, members
 * in their original order. A call with no base, or nothing shared with it, is stored as it was made, which
 * is also how every call was stored before: those read back unchanged.
 */
export interface RequestDelta {
  /** The `call_id` of the call this one is relative to. */
  readonly base: string
  /** How many entries of the base's conversation plus its answer open this call's conversation. */
  readonly keep: number
  /** Request members equal to the base's, stored as null. */
  readonly same?: ReadonlyArray<string>
}

/** A model call as stored: a `ModelCall`, or one relative to an earlier call of its rollout. */
export type StoredModelCall = ModelCall & { readonly request_delta?: RequestDelta }

/** The request member that carries the conversation, by API. */
const CONVERSATION: Record<ModelApi, string> = {
  chat_completions: "messages",
  responses: "input",
  messages: "messages",
}

/** A member shorter than this is cheaper stored again than named in `same`. */
const MIN_SHARED_BYTES = 48

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** A conversation followed by its answer: what the next call of a well-behaved client starts with. */
const continuation = (call: ModelCall): ReadonlyArray<unknown> => {
  const request = call.request as Json
  const conversation = request[CONVERSATION[call.api]]
  if (!Array.isArray(conversation)) return []
  return call.response_message === null || call.response_message === undefined
    ? conversation
    : [...conversation, call.response_message]
}

/**
 * A call as the next call of its rollout is compared with it: the entries of its continuation and its long
 * request members as JSON text, so each call's content is turned into text once.
 */
interface Seen {
  readonly call: ModelCall
  readonly entries: ReadonlyArray<string>
  readonly members: ReadonlyMap<string, string>
}

const text = (value: unknown): string => JSON.stringify(value) ?? ""

/** The request members worth sharing, as text (`__proto__` never: assigning it would set the prototype). */
const memberTexts = (request: Json, field: string): Map<string, string> => {
  const members = new Map<string, string>()
  for (const key of Object.keys(request)) {
    if (key === field || key === "__proto__") continue
    const json = text(request[key])
    if (json.length >= MIN_SHARED_BYTES) members.set(key, json)
  }
  return members
}

const seenAlone = (call: ModelCall): Seen => ({
  call,
  entries: continuation(call).map(text),
  members: isObject(call.request) ? memberTexts(call.request, CONVERSATION[call.api]) : new Map(),
})

const encodeOne = (call: ModelCall, base: Seen): { readonly stored: StoredModelCall; readonly seen: Seen } => {
  const request = call.request
  if (!isObject(request) || !isObject(base.call.request) || call.api !== base.call.api) {
    return { stored: call, seen: seenAlone(call) }
  }
  const field = CONVERSATION[call.api]
  const conversation = request[field]
  const entries: Array<string> = []
  if (Array.isArray(conversation)) {
    for (const entry of conversation) entries.push(text(entry))
    if (call.response_message !== null && call.response_message !== undefined) entries.push(text(call.response_message))
  }
  let keep = 0
  const length = Array.isArray(conversation) ? conversation.length : 0
  while (keep < length && keep < base.entries.length && entries[keep] === base.entries[keep]) keep++
  const members = memberTexts(request, field)
  const same = Array.from(members.keys()).filter((key) => members.get(key) === base.members.get(key))
  const seen: Seen = { call, entries, members }
  if (keep === 0 && same.length === 0) return { stored: call, seen }
  const stored: Json = { ...request }
  if (keep > 0) stored[field] = (conversation as ReadonlyArray<unknown>).slice(keep)
  for (const key of same) stored[key] = null
  const delta: RequestDelta =
    same.length === 0 ? { base: base.call.call_id, keep } : { base: base.call.call_id, keep, same }
  return { stored: { ...call, request: stored, request_delta: delta }, seen }
}

/**
 * Stores calls, each relative to the previous call of its rollout in this list; give them in start order (a
 * rollout's calls as the interceptor returns them). The first call of each rollout is stored whole, so what
 * one list holds decodes on its own.
 */
export const encodeModelCalls = (calls: ReadonlyArray<ModelCall>): Array<StoredModelCall> => {
  // A rollout's first call, as text only once a second call needs it: most rollouts make one call (a task app's
  // single turn), and turning its conversation into text would be work for nothing.
  const previous = new Map<string, Seen | ModelCall>()
  return calls.map((call) => {
    const base = previous.get(call.rollout_id)
    if (base === undefined) {
      previous.set(call.rollout_id, call)
      return call
    }
    const { stored, seen } = encodeOne(call, "entries" in base ? base : seenAlone(base))
    previous.set(call.rollout_id, seen)
    return stored
  })
}

const isDelta = (value: unknown): value is RequestDelta => {
  const delta = value as Partial<RequestDelta> | null
  return (
    isObject(delta) &&
    typeof delta.base === "string" &&
    Number.isSafeInteger(delta.keep) &&
    (delta.keep as number) >= 0 &&
    (delta.same === undefined || (Array.isArray(delta.same) && delta.same.every((key) => typeof key === "string")))
  )
}

const decodeOne = (stored: StoredModelCall, delta: RequestDelta, base: ModelCall): Either.Either<ModelCall, string> => {
  const { request_delta: _delta, ...call } = stored
  const request = stored.request
  if (!isObject(request) || !isObject(base.request)) return Either.left("its request or its base's is not an object")
  const field = CONVERSATION[call.api]
  const restored: Json = { ...request }
  if (delta.keep > 0) {
    const prefix = continuation(base)
    const added = request[field]
    if (prefix.length < delta.keep || !Array.isArray(added)) {
      return Either.left(`it keeps ${delta.keep} entries of a conversation of ${prefix.length}`)
    }
    restored[field] = [...prefix.slice(0, delta.keep), ...added]
  }
  for (const key of delta.same ?? []) {
    // The encoder never shares `__proto__`; assigning it would set the prototype instead.
    if (key === "__proto__" || !Object.hasOwn(base.request, key) || !Object.hasOwn(request, key)) {
      return Either.left(`it shares "${key}", which its base's request lacks`)
    }
    restored[key] = base.request[key]
  }
  return Either.right({ ...call, request: restored })
}

/**
 * Reconstructs stored calls exactly as they were made, in the order given except that a call's base comes
 * before it (lines of a file are in that order already; rows of a table may not be). Fails, naming the call,
 * when a base is missing or does not fit: stored calls that were cut apart or altered.
 */
export const decodeModelCalls = (stored: ReadonlyArray<unknown>): Either.Either<Array<ModelCall>, string> => {
  const byId = new Map<string, StoredModelCall>()
  for (const value of stored) {
    const call = value as StoredModelCall
    if (isObject(call) && typeof call.call_id === "string") byId.set(call.call_id, call)
  }
  const decoded = new Map<string, ModelCall>()
  const order: Array<ModelCall> = []
  const decode = (start: StoredModelCall): string | null => {
    // The chain back to a call already decoded (or a whole one), walked without recursion: it is as long as the rollout.
    const chain: Array<StoredModelCall> = []
    const seen = new Set<string>()
    for (let call: StoredModelCall | undefined = start; call !== undefined; ) {
      if (decoded.has(call.call_id)) break
      if (seen.has(call.call_id)) return `model call ${call.call_id} is its own base`
      seen.add(call.call_id)
      chain.push(call)
      const delta = call.request_delta
      if (delta === undefined) break
      if (!isDelta(delta)) return `model call ${call.call_id} has an unreadable request_delta`
      call = byId.get(delta.base)
      if (call === undefined)
        return `model call ${chain.at(-1)!.call_id} is relative to ${delta.base}, which is missing`
    }
    for (const call of chain.reverse()) {
      const delta = call.request_delta
      const whole = delta === undefined ? Either.right(call) : decodeOne(call, delta, decoded.get(delta.base)!)
      if (Either.isLeft(whole)) return `model call ${call.call_id} cannot be reconstructed: ${whole.left}`
      decoded.set(call.call_id, whole.right)
      order.push(whole.right)
    }
    return null
  }
  for (const call of byId.values()) {
    if (decoded.has(call.call_id)) continue
    const problem = decode(call)
    if (problem !== null) return Either.left(problem)
  }
  return Either.right(order)
}
