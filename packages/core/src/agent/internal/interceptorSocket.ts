import { mkdtempSync, rmSync } from "node:fs"
import { connect, createServer, type Server, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { SandboxError } from "../../sandbox/Sandbox.js"

/** Where a sandbox reaches the rollout's interceptor, and the model base URL to give the agent inside it. */
export interface SandboxInterceptor {
  readonly socketPath: string
  readonly port: number
  /** The rollout's inference URL as seen from inside the sandbox: `http://127.0.0.1:{port}/{cid}/v1`. */
  readonly inferenceUrl: string
}

const defaultPort = (url: URL) => (url.protocol === "https:" ? 443 : 80)

/**
 * A unix socket on the host that forwards each connection to the interceptor's TCP address, for the sandbox's
 * relay (a network-less sandbox reaches only a filesystem socket). It lives as long as the scope, and the inside
 * URL keeps the interceptor's port and path (the rollout's correlation id) on the sandbox's own loopback.
 */
export const interceptorSocket = (inferenceUrl: string) =>
  Effect.acquireRelease(
    Effect.async<
      { readonly server: Server; readonly dir: string; readonly found: SandboxInterceptor; open: Set<Socket> },
      SandboxError
    >((resume) => {
      const url = new URL(inferenceUrl)
      const port = url.port === "" ? defaultPort(url) : Number(url.port)
      const host = url.hostname.replace(/^\[|\]$/g, "")
      const dir = mkdtempSync(join(tmpdir(), "proctor-interceptor-"))
      const socketPath = join(dir, "interceptor.sock")
      const open = new Set<Socket>()
      const server = createServer((inside) => {
        const upstream = connect({ port, host, noDelay: true })
        open.add(inside).add(upstream)
        inside.pipe(upstream).pipe(inside)
        const close = () => {
          inside.destroy()
          upstream.destroy()
          open.delete(inside)
          open.delete(upstream)
        }
        inside.on("error", close)
        upstream.on("error", close)
        inside.on("close", close)
        upstream.on("close", close)
      })
      server.once("error", (cause) => {
        rmSync(dir, { recursive: true, force: true })
        resume(
          Effect.fail(
            new SandboxError({ reason: "StartFailed", message: `the interceptor's socket: ${cause.message}`, cause }),
          ),
        )
      })
      server.listen(socketPath, () => {
        const inside = new URL(url.pathname + url.search, `http://127.0.0.1:${port}`)
        const found = { socketPath, port, inferenceUrl: inside.toString().replace(/\/$/, "") }
        resume(Effect.succeed({ server, dir, found, open }))
      })
    }),
    ({ server, dir, open }) =>
      Effect.async<void>((resume) => {
        server.close(() => {
          rmSync(dir, { recursive: true, force: true })
          resume(Effect.void)
        })
        // Open connections of a finished rollout are cut, not waited for.
        for (const socket of open) socket.destroy()
      }),
  ).pipe(Effect.map(({ found }) => found))
