/**
 * The floor under the interceptor's CPU: the least a Node proxy can do per call on this machine. A `node:http`
 * server whose every POST is sent on, byte for byte, to the upstream over undici's dispatcher (the interceptor's
 * own server and client), answered as it arrives; nothing parsed, recorded or priced. It answers the bench's IPC as `interceptorProcess.ts` does, so the same open-loop
 * schedule drives it: a rollout is only a path prefix here, and closing one reports how many calls it took.
 *
 * Prints `{"url": …}` on stdout once it listens; exits when the IPC channel closes.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { answerIpc } from "@proctor/bench-shared"
import { Pool } from "undici"
import { UPSTREAM_KEY } from "./settings.js"

type Message =
  | { readonly op: "open"; readonly baseUrl: string }
  | { readonly op: "close"; readonly cid: string }
  | { readonly op: "pauses" }
  | { readonly op: "tick" }

const upstreams = new Map<string, { readonly pool: Pool; readonly path: string }>()
/** Each open rollout's upstream and how many calls it has taken. */
const rollouts = new Map<string, { readonly upstream: { readonly pool: Pool; readonly path: string }; calls: number }>()
let opened = 0

const server = createServer({ keepAliveTimeout: 72_000 }, (req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk))
  req.on("end", () => {
    const rollout = rollouts.get((req.url ?? "").split("/", 2)[1] ?? "")
    if (rollout === undefined) return void res.writeHead(404).end()
    rollout.calls++
    rollout.upstream.pool.dispatch(
      {
        method: "POST",
        path: rollout.upstream.path,
        headers: { "content-type": "application/json", authorization: `Bearer ${UPSTREAM_KEY}` },
        body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
      },
      {
        onRequestStart: () => {},
        onResponseStart: (_controller, status, headers) => {
          res.writeHead(status, { "content-type": String(headers["content-type"] ?? "application/json") })
        },
        onResponseData: (_controller, chunk) => void res.write(chunk),
        onResponseEnd: () => void res.end(),
        onResponseError: (_controller, error) => void res.destroy(error),
      },
    )
  })
})
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

answerIpc<Message>((message) => {
  switch (message.op) {
    case "open": {
      let upstream = upstreams.get(message.baseUrl)
      if (upstream === undefined) {
        const base = new URL(message.baseUrl)
        upstream = {
          pool: new Pool(base.origin, { connections: 256 }),
          path: `${base.pathname.replace(/\/+$/, "")}/chat/completions`,
        }
        upstreams.set(message.baseUrl, upstream)
      }
      const cid = `bare${opened++}`
      rollouts.set(cid, { upstream, calls: 0 })
      return { cid, inferenceUrl: `${url}/${cid}/v1` }
    }
    case "close": {
      const calls = rollouts.get(message.cid)?.calls ?? 0
      rollouts.delete(message.cid)
      // Nothing is recorded here: no latencies of its own to report.
      return { calls, ok: calls, latencies: [], ttfts: [] }
    }
    case "pauses":
      return {
        loopDelay: { p50: 0, p99: 0, max: 0 },
        minor: { count: 0, ms: 0, max: 0 },
        major: { count: 0, ms: 0, max: 0 },
        stalls: [],
        gcPauses: [],
      }
    case "tick":
      return {}
  }
})

process.on("disconnect", () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})

process.stdout.write(`${JSON.stringify({ url })}\n`)
