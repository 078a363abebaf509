import { Agent, request as httpRequest } from "node:http"
import { countWrong, isExpected, REQUEST_HEADERS, rolloutBody } from "./rolloutWire.js"

/**
 * The bare `node:http` keep-alive loop (`http.Agent`, maxSockets `concurrency`) against the task app on `port`:
 * how many of its `n` answers were not the expected one. `bareNodeHttp` times it here; `bareLoopProcess.ts` runs
 * it as a process of its own.
 */
export const nodeHttpLoop = async (port: number, n: number, concurrency: number): Promise<number> => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const post = (body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          agent,
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/rollout",
          headers: { ...REQUEST_HEADERS, "content-length": Buffer.byteLength(body) },
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
  try {
    return await countWrong(n, concurrency, async (seed) => {
      const { status, text } = await post(rolloutBody(seed))
      return isExpected(status, text, seed)
    })
  } finally {
    agent.destroy()
  }
}
