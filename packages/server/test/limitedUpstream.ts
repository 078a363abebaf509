import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { RunningBaselineModel } from "../../../examples/baseline-model/src/index.js"

export interface Arrival {
  readonly at: number
  readonly status: number
}

export interface LimitedUpstream {
  /** Its OpenAI base URL (`…/v1`). */
  readonly url: string
  /** Every request it received, in order. */
  readonly arrivals: ReadonlyArray<Arrival>
  readonly close: () => Promise<void>
}

/**
 * The baseline model behind a limiter, as a provider's rate limit looks from outside: it accepts `limitPerS`
 * requests in any second (sliding) and answers 429 with `Retry-After: 1` above that.
 */
export const startLimitedUpstream = async (
  model: RunningBaselineModel,
  limitPerS: number,
): Promise<LimitedUpstream> => {
  const arrivals: Array<Arrival> = []
  const accepted: Array<number> = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", async () => {
      const at = performance.now()
      while (accepted.length > 0 && accepted[0]! <= at - 1000) accepted.shift()
      if (accepted.length >= limitPerS) {
        arrivals.push({ at, status: 429 })
        res.writeHead(429, { "content-type": "application/json", "retry-after": "1" })
        res.end(
          JSON.stringify({ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }),
        )
        return
      }
      accepted.push(at)
      arrivals.push({ at, status: 200 })
      const answer = await fetch(`${model.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      })
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" })
      res.end(Buffer.from(await answer.arrayBuffer()))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, arrivals, close }
}

/** The most requests that reached the upstream within any one second from `from` on (ms, performance.now). */
export const peakPerSecond = (arrivals: ReadonlyArray<Arrival>, from: number): number => {
  const times = arrivals.map((a) => a.at).filter((at) => at >= from)
  let peak = 0
  for (let start = 0, end = 0; start < times.length; start++) {
    while (end < times.length && times[end]! < times[start]! + 1000) end++
    peak = Math.max(peak, end - start)
  }
  return peak
}
