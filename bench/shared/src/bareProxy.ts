/**
 * The floor under an intercepting eval: the least a Node proxy can do per model call. A `node:http` server whose
 * every POST is sent on, byte for byte, to an upstream over undici's dispatcher (the interceptor's own server and
 * client) and answered as it arrives; nothing parsed, recorded or priced. The benches run it beside proctor's
 * interceptor, on the same schedules, so a ratio to it says what proctor adds and a limit below it is one no
 * Node proxy meets on the machine.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Pool } from "undici"

export interface BareRoute {
  readonly pool: Pool
  /** The upstream path the request goes to. */
  readonly path: string
}

/** A pool per upstream origin, kept for the life of the process. */
const pools = new Map<string, Pool>()
export const bareUpstream = (origin: string): Pool => {
  let pool = pools.get(origin)
  if (pool === undefined) {
    pool = new Pool(origin, { connections: 256 })
    pools.set(origin, pool)
  }
  return pool
}

/**
 * Serves the bare proxy on 127.0.0.1 (any free port); `route` says where a request goes (null: 404). Resolves
 * with the server and its base URL once it listens.
 */
export const startBareProxy = async (
  route: (url: string) => BareRoute | null,
  authorization: string | null = null,
): Promise<{ readonly server: Server; readonly url: string }> => {
  const server = createServer({ keepAliveTimeout: 72_000 }, (req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const target = route(req.url ?? "/")
      if (target === null) return void res.writeHead(404).end()
      target.pool.dispatch(
        {
          method: "POST",
          path: target.path,
          headers: {
            "content-type": "application/json",
            ...(authorization === null ? {} : { authorization }),
          },
          body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
        },
        {
          onRequestStart: () => {},
          onResponseStart: (_controller, status, headers) => {
            res.writeHead(status, { "content-type": String(headers["content-type"] ?? "application/json") })
          },
          onResponseData: (_controller, chunk) => void res.write(chunk),
          onResponseEnd: () => void res.end(),
          onResponseError: (_controller, error) => void res.destroy(error),
        },
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}
