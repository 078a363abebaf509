import { request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"

/** Long enough for a model server under load to accept a connection; a dead one refuses at once. */
const REACH_TIMEOUT_MS = 10_000

/**
 * Why the model endpoint at `url` cannot be reached (`ECONNREFUSED 127.0.0.1:8009`, `ENOTFOUND host`), or null
 * when it answers at all: any HTTP status will do, since the base URL of an API need not serve anything itself.
 * Found here, the run never starts; found by each rollout, hundreds fail the same way after their retries.
 */
export const modelEndpointProblem = (url: string): Promise<string | null> =>
  new Promise((resolve) => {
    const target = new URL(url)
    const request = target.protocol === "https:" ? httpsRequest : httpRequest
    const req = request(target, { method: "GET", timeout: REACH_TIMEOUT_MS }, (res) => {
      res.resume()
      resolve(null)
    })
    req.on("timeout", () => req.destroy(new Error(`no answer within ${REACH_TIMEOUT_MS / 1000} s`)))
    req.on("error", (error: NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string }) => {
      const where = error.address === undefined ? (error.hostname ?? "") : `${error.address}:${error.port ?? ""}`
      resolve(error.code === undefined ? error.message : `${error.code} ${where}`.trim())
    })
    req.end()
  })
