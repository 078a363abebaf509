import { type Agent, request as httpRequest, type OutgoingHttpHeaders } from "node:http"

/**
 * What the bare loops share: one POST /rollout over a `node:http` keep-alive agent, and seeds handed out to a fixed
 * number of workers. Imports only node:http, so a bare loop that is its own process
 * (`@proctor/bench-shared/bareRollouts`) starts as a bare script does.
 */

/** POSTs `body` to `/rollout` on `host:port` through `agent`; the answer's status and text. */
export const postRollout = (
  agent: Agent,
  target: { readonly host: string; readonly port: number | string },
  headers: OutgoingHttpHeaders,
  body: string,
): Promise<{ readonly status: number; readonly text: string }> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: target.host,
        port: target.port,
        method: "POST",
        path: "/rollout",
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (chunk: Buffer) => chunks.push(chunk))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }))
        res.on("error", reject)
      },
    )
    req.on("error", reject)
    req.end(body)
  })

/** `concurrency` workers taking seeds 0..n-1 in turn, each awaiting `one(seed)` before its next. */
export const forEachSeed = async (
  n: number,
  concurrency: number,
  one: (seed: number) => Promise<void>,
): Promise<void> => {
  let next = 0
  const worker = async () => {
    while (next < n) await one(next++)
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}
