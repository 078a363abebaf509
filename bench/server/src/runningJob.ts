import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { log, sleep } from "@proctor/bench-shared"
import { describeLoad, hammer, type LoadResult } from "./hammer.js"
import { api, type StatusBody, submitJob } from "./jobApi.js"
import type { ServerProcess } from "./processes.js"
import { DURATION_S, quiet } from "./settings.js"

/**
 * Not a target, for comparison: the status of a job still running (one rollout held open by a task app that
 * never answers), answered from the job's row and its live tallies, serialised on every poll.
 */
export const measureRunningJob = async (
  server: ServerProcess,
  key: string,
  auth: Record<string, string>,
  pids: ReadonlyArray<number>,
): Promise<LoadResult> => {
  const silent = createServer((req, res) => {
    if (req.url === "/health") res.writeHead(200, { "content-type": "application/json" }).end('{"healthy":true}')
    else req.resume()
  })
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
  try {
    const origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    const jobId = await submitJob(server, key, origin, 1, 1, 3_600)
    let statusText = ""
    for (let tries = 0; ; tries++) {
      statusText = await api(server, key, "GET", `/api/eval/jobs/${jobId}`)
      if ((JSON.parse(statusText) as StatusBody).status === "running") break
      if (tries === 100) throw new Error(`job ${jobId} is not running: ${statusText}`)
      await sleep(50)
    }
    const url = `${server.url}/api/eval/jobs/${jobId}`
    await quiet(pids)
    const result = await hammer("server", url, auth, statusText, DURATION_S, server.pid, [])
    log(`running job: ${describeLoad(result)}`)
    await api(server, key, "POST", `/api/eval/jobs/${jobId}/cancel`)
    return result
  } finally {
    silent.closeAllConnections()
    silent.close()
  }
}
