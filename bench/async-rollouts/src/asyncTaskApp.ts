/**
 * The bench's task app (its own process): proctor's SDK in the async form (`rolloutMode: "async"`). Seed s's
 * rollout takes a duration spread evenly over [--min-s, --max-s] (argv 2 and 3), so rollouts finish all through
 * the run, at every gap of proctor's poll schedule. The app times, in its own clock, when each rollout's handler
 * finished, every poll of it, and when a poll first answered it completed: `GET /bench/stats` (no key) hands the
 * timings to the bench. Prints `{"port": N}` when listening; stops when stdin closes.
 */
import { createTaskApp } from "@proctor/task-app"
import { BENCH_KEY } from "./benchKey.js"
import type { RolloutTimings } from "./RolloutTimings.js"

const minMs = Number(process.argv[2]) * 1000
const maxMs = Number(process.argv[3]) * 1000

const durationOf = (seed: number) => minMs + (((seed * 7919) % 1000) / 1000) * (maxMs - minMs)

/** By the app's rollout id; `finishedAt` is found through the correlation id the handler sees. */
const timings = new Map<string, RolloutTimings>()
const finishedAt = new Map<string, number>()
const appIdOf = new Map<string, string>()

const taskApp = createTaskApp({
  appId: "async-bench",
  name: "Async rollouts bench",
  taskset: {},
  apiKey: BENCH_KEY,
  rolloutMode: "async",
  rollout: (request, { signal, traceCorrelationId }) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => {
          finishedAt.set(traceCorrelationId, performance.now())
          resolve({ score: 1 })
        },
        durationOf(request.env.seed ?? 0),
      )
      signal.addEventListener("abort", () => {
        clearTimeout(timer)
        reject(new Error("terminated"))
      })
    }),
})

const POLL = /^\/rollouts\/([^/]+)$/

taskApp.app.addHook("onRequest", async (request) => {
  const poll = request.method === "GET" ? POLL.exec(request.url) : null
  if (poll === null) return
  const entry = timings.get(poll[1]!)
  entry?.polls.push(performance.now())
})

taskApp.app.addHook("onSend", async (request, _reply, payload) => {
  if (typeof payload !== "string") return payload
  if (request.method === "POST" && request.url === "/rollout") {
    const started = JSON.parse(payload) as { rollout_id?: string; trace_correlation_id?: string }
    if (started.rollout_id !== undefined && started.trace_correlation_id !== undefined) {
      appIdOf.set(started.rollout_id, started.trace_correlation_id)
      timings.set(started.rollout_id, { startedAt: performance.now(), polls: [], finishedAt: null, knownAt: null })
    }
    return payload
  }
  const poll = request.method === "GET" ? POLL.exec(request.url) : null
  const entry = poll === null ? undefined : timings.get(poll[1]!)
  if (entry !== undefined && entry.knownAt === null && payload.includes('"status":"completed"')) {
    entry.knownAt = performance.now()
    entry.finishedAt = finishedAt.get(appIdOf.get(poll![1]!)!) ?? null
  }
  return payload
})

taskApp.app.get("/bench/stats", async () => [...timings.values()])

const running = await taskApp.listen()
process.stdout.write(`${JSON.stringify({ port: Number(new URL(running.url).port) })}\n`)
process.stdin.resume()
process.stdin.on("end", () => void running.close().then(() => process.exit(0)))
