/**
 * The limit for `GET /api/eval/jobs/{id}`: a bare fastify server (no logger, no hooks, no auth, no database)
 * with that one route, answering the object it was given — the job server's own status answer, read from a JSON
 * file — so fastify serialises the same bytes per request as the job server does. Run as its own process
 * (`node dist/bareProcess.js BODY.json [--exit-with-stdin]`); prints `{"port": N}` on one stdout line once
 * listening, and exits on SIGTERM/SIGINT or, with `--exit-with-stdin`, when its stdin closes.
 */
import { readFileSync } from "node:fs"
import Fastify from "fastify"

const bodyFile = process.argv[2]
if (bodyFile === undefined) throw new Error("usage: bareProcess.js BODY.json")
const body = JSON.parse(readFileSync(bodyFile, "utf8")) as Record<string, unknown>

const app = Fastify({ logger: false })
app.get<{ Params: { id: string } }>("/api/eval/jobs/:id", (_request, reply) => reply.send(body))

await app.listen({ host: "127.0.0.1", port: 0 })
const address = app.server.address()
process.stdout.write(
  `${JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 })}\n`,
)

let stopping = false
const shutdown = () => {
  if (stopping) return
  stopping = true
  void app.close().then(() => process.exit(0))
}
process.on("SIGTERM", shutdown)
process.on("SIGINT", shutdown)
if (process.argv.includes("--exit-with-stdin")) {
  process.stdin.on("end", shutdown)
  process.stdin.resume()
}
