/**
 * The bare proxy (bench/shared's bareProxy.ts, the floor under the interceptor's CPU) in a process of its own,
 * answering the bench's IPC as `interceptorProcess.ts` does, so the same open-loop schedule drives it: a rollout
 * is only a path prefix here, and closing one reports how many calls it took.
 *
 * Prints `{"url": …}` on stdout once it listens; exits when the IPC channel closes.
 */
import { answerIpc } from "@proctor/bench-shared"
import { type BareRoute, bareUpstream, startBareProxy } from "@proctor/bench-shared/bareProxy"
import { UPSTREAM_KEY } from "./settings.js"

type Message =
  | { readonly op: "open"; readonly baseUrl: string }
  | { readonly op: "close"; readonly cid: string }
  | { readonly op: "pauses" }
  | { readonly op: "tick" }

/** Each open rollout's upstream route and how many calls it has taken. */
const rollouts = new Map<string, { readonly route: BareRoute; calls: number }>()
let opened = 0

const { server, url } = await startBareProxy((path) => {
  const rollout = rollouts.get(path.split("/", 2)[1] ?? "")
  if (rollout === undefined) return null
  rollout.calls++
  return rollout.route
}, `Bearer ${UPSTREAM_KEY}`)

answerIpc<Message>((message) => {
  switch (message.op) {
    case "open": {
      const base = new URL(message.baseUrl)
      const route = { pool: bareUpstream(base.origin), path: `${base.pathname.replace(/\/+$/, "")}/chat/completions` }
      const cid = `bare${opened++}`
      rollouts.set(cid, { route, calls: 0 })
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
