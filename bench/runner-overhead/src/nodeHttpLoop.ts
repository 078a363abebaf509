import { Agent } from "node:http"
import { postRollout } from "@proctor/bench-shared/bareRollouts"
import { countWrong, isExpected, REQUEST_HEADERS, rolloutBody } from "./rolloutWire.js"

/**
 * The bare `node:http` keep-alive loop (`http.Agent`, maxSockets `concurrency`) against the task app on `port`:
 * how many of its `n` answers were not the expected one. `bareNodeHttp` times it here; `bareLoopProcess.ts` runs
 * it as a process of its own.
 */
export const nodeHttpLoop = async (port: number, n: number, concurrency: number): Promise<number> => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  try {
    return await countWrong(n, concurrency, async (seed) => {
      const { status, text } = await postRollout(agent, { host: "127.0.0.1", port }, REQUEST_HEADERS, rolloutBody(seed))
      return isExpected(status, text, seed)
    })
  } finally {
    agent.destroy()
  }
}
