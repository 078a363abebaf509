import { connect } from "node:net"

/** Long enough for a model server under load to accept a connection; a dead one refuses at once. */
const REACH_TIMEOUT_MS = 10_000

const defaultPort = (url: URL) => (url.protocol === "https:" ? 443 : 80)

/**
 * Why the model endpoint at `url` cannot be reached (`ECONNREFUSED 127.0.0.1:8009`, `ENOTFOUND host`), or null
 * when it accepts a connection. Only a connection is made — no request, so no key is sent and a server that
 * answers nothing but model calls passes. Found here, the run never starts; found by each rollout, hundreds
 * fail the same way after their retries.
 */
export const modelEndpointProblem = (url: string): Promise<string | null> =>
  new Promise((resolve) => {
    const target = new URL(url)
    const port = target.port === "" ? defaultPort(target) : Number(target.port)
    const host = target.hostname.replace(/^\[|\]$/g, "")
    const socket = connect({ host, port, timeout: REACH_TIMEOUT_MS })
    socket.once("connect", () => {
      socket.destroy()
      resolve(null)
    })
    socket.once("timeout", () => socket.destroy(new Error(`no answer within ${REACH_TIMEOUT_MS / 1000} s`)))
    socket.once("error", (error: NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string }) => {
      const where = error.address === undefined ? (error.hostname ?? "") : `${error.address}:${error.port ?? ""}`
      resolve(error.code === undefined ? error.message : `${error.code} ${where}`.trim())
    })
  })
