import { MATH_TOOLS, problemForSeed, SYSTEM_PROMPT } from "@proctor/example-math"
import type { Pool } from "undici"

export const HEADERS = {
  "content-type": "application/json",
  accept: "application/json",
  authorization: "Bearer task-app-placeholder",
}

/** What the math task app sends on its first turn (system prompt, problem, its two tools), for one seed. */
export const chatBody = (seed: number, stream: boolean): string =>
  JSON.stringify({
    model: "gpt-4o-mini",
    temperature: 0,
    tools: MATH_TOOLS,
    // Streams are asked for text, so there are content deltas to time.
    tool_choice: stream ? "none" : "auto",
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: problemForSeed(seed).question },
    ],
    ...(stream ? { stream: true } : {}),
  })

export const BODIES = Array.from({ length: 64 }, (_, seed) => ({
  json: chatBody(seed, false),
  sse: chatBody(seed, true),
}))

export interface Timing {
  /** Send → last byte (JSON) or → first content delta (SSE), ms. */
  readonly ms: number
  readonly ok: boolean
  /** When it was sent (performance.now()). */
  readonly t0: number
}

export const hasContentDelta = (events: string): boolean => {
  for (const event of events.split("\n\n")) {
    if (!event.startsWith("data: ") || event === "data: [DONE]") continue
    try {
      const chunk = JSON.parse(event.slice(6)) as { choices?: Array<{ delta?: { content?: unknown } }> }
      const content = chunk.choices?.[0]?.delta?.content
      if (typeof content === "string" && content !== "") return true
    } catch {
      // a torn event: the rest arrives in the next chunk
    }
  }
  return false
}

export const timeJson = async (pool: Pool, path: string, body: string): Promise<Timing> => {
  const t0 = performance.now()
  const res = await pool.request({ method: "POST", path, headers: HEADERS, body })
  const text = await res.body.text()
  const ms = performance.now() - t0
  let ok = res.statusCode === 200
  if (ok) {
    const answer = JSON.parse(text) as { choices?: Array<unknown>; usage?: unknown }
    ok = answer.choices?.[0] !== undefined && answer.usage !== undefined
  }
  return { ms, ok, t0 }
}

/** Time to the first content delta; the rest of the stream is read to the end and checked. */
export const timeStream = async (pool: Pool, path: string, body: string): Promise<Timing> => {
  const t0 = performance.now()
  const res = await pool.request({ method: "POST", path, headers: HEADERS, body })
  let ttft: number | null = null
  let seen = ""
  let scanned = 0
  for await (const chunk of res.body) {
    seen += (chunk as Buffer).toString("utf8")
    if (ttft === null) {
      const end = seen.lastIndexOf("\n\n")
      if (end >= scanned) {
        if (hasContentDelta(seen.slice(scanned, end))) ttft = performance.now() - t0
        scanned = end + 2
      }
    }
  }
  const ok = res.statusCode === 200 && ttft !== null && seen.includes("data: [DONE]")
  return { ms: ttft ?? performance.now() - t0, ok, t0 }
}
