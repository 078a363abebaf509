/**
 * A zero-work synth-ai task app on bare `node:http`: the fastest honest server. It reads the whole body,
 * parses it, and answers a small valid rollout response (score = seed % 2) echoing the run id. Run as its
 * own process (`node dist/zeroWorkTaskApp.js [port] [--exit-with-stdin]`); it prints `{"port": N}` on one
 * stdout line once it is listening, and exits on SIGTERM/SIGINT (or, with `--exit-with-stdin`, when its
 * stdin closes, so a parent that dies without signalling still takes it down). `--latency-ms N` holds each
 * rollout's answer N ms (a timer, no CPU): a task app whose rollouts take time, for throughput under latency.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"

const JSON_HEADERS = { "content-type": "application/json" }

const send = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { ...JSON_HEADERS, "content-length": Buffer.byteLength(body) })
  res.end(body)
}

const readBody = (req: IncomingMessage, onBody: (text: string) => void) => {
  const chunks: Array<Buffer> = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk))
  req.on("end", () =>
    onBody(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")),
  )
}

interface RolloutRequestShape {
  readonly run_id?: unknown
  readonly env?: { readonly seed?: unknown }
}

const rolloutResponse = (text: string): string | null => {
  let request: RolloutRequestShape
  try {
    request = JSON.parse(text) as RolloutRequestShape
  } catch {
    return null
  }
  const runId = typeof request.run_id === "string" ? request.run_id : ""
  const seed = typeof request.env?.seed === "number" ? request.env.seed : 0
  const score = seed % 2
  return JSON.stringify({
    run_id: runId,
    trace_correlation_id: runId,
    trajectories: [],
    metrics: {
      episode_returns: [score],
      mean_return: score,
      num_steps: 1,
      num_episodes: 1,
      outcome_score: score,
      outcome_reward: score,
      reward_mean: score,
      details: {},
    },
    aborted: false,
  })
}

const HEALTH = JSON.stringify({ healthy: true, status: "ok" })

const args = process.argv.slice(2)
const latencyFlag = args.indexOf("--latency-ms")
const latencyMs = latencyFlag === -1 ? 0 : Number(args[latencyFlag + 1])

const server = createServer((req, res) => {
  const path = req.url ?? "/"
  if (req.method === "POST" && path === "/rollout") {
    readBody(req, (text) => {
      const body = rolloutResponse(text)
      if (body === null) send(res, 422, JSON.stringify({ detail: "body is not JSON" }))
      else if (latencyMs > 0) setTimeout(() => send(res, 200, body), latencyMs)
      else send(res, 200, body)
    })
    return
  }
  // Drain whatever else was sent so the connection stays usable.
  req.resume()
  if (req.method === "GET" && (path === "/health" || path === "/")) send(res, 200, HEALTH)
  else send(res, 404, JSON.stringify({ detail: "not found" }))
})
server.keepAliveTimeout = 65_000
server.headersTimeout = 66_000

const port = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--latency-ms") ?? "0")
server.listen(port, "127.0.0.1", () => {
  const address = server.address()
  const bound = typeof address === "object" && address !== null ? address.port : port
  process.stdout.write(`${JSON.stringify({ port: bound })}\n`)
})

const shutdown = () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
}
process.on("SIGTERM", shutdown)
process.on("SIGINT", shutdown)
if (args.includes("--exit-with-stdin")) {
  process.stdin.on("end", shutdown)
  process.stdin.resume()
}
