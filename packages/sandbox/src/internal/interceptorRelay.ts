import { spawn } from "node:child_process"
import { SandboxError } from "@proctor/core"
import { Effect } from "effect"

/**
 * The relay's own program, run by `node -e` inside the sandbox's network namespace: it listens on the sandbox's
 * `127.0.0.1:PORT` and pipes each connection to the interceptor's unix socket on the host (a filesystem socket is
 * reachable from any network namespace). Nothing else is routed, so the interceptor is all the sandbox can reach.
 */
const RELAY_PROGRAM = `
const net = require("node:net")
const [port, socketPath] = process.argv.slice(-2)
const server = net.createServer((inside) => {
  const host = net.connect(socketPath)
  inside.pipe(host).pipe(inside)
  const close = () => { inside.destroy(); host.destroy() }
  inside.on("error", close); host.on("error", close); inside.on("close", close); host.on("close", close)
})
server.on("error", (e) => { process.stderr.write(String(e) + "\\n"); process.exit(1) })
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\\n"))
`

/**
 * Starts the relay in the network namespace of host pid `pid` (a container's init, a bwrap sandbox's first
 * process) and waits until it listens; it is killed when the scope closes.
 */
export const startInterceptorRelay = (
  pid: number,
  interceptor: { readonly socketPath: string; readonly port: number },
) =>
  Effect.acquireRelease(
    Effect.async<ReturnType<typeof spawn>, SandboxError>((resume) => {
      const child = spawn(
        "nsenter",
        [
          `--net=/proc/${pid}/ns/net`,
          "--",
          process.execPath,
          "-e",
          RELAY_PROGRAM,
          String(interceptor.port),
          interceptor.socketPath,
        ],
        { stdio: ["ignore", "pipe", "pipe"], env: {} },
      )
      let stderr = ""
      const fail = (message: string, cause?: unknown) =>
        resume(Effect.fail(new SandboxError({ reason: "StartFailed", message, cause })))
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString()
      })
      child.stdout?.once("data", () => resume(Effect.succeed(child)))
      child.once("error", (cause) => fail(`the interceptor relay would not start: ${cause.message}`, cause))
      child.once("exit", (code) => fail(`the interceptor relay exited (${code}) before listening: ${stderr.trim()}`))
      return Effect.sync(() => child.kill("SIGKILL"))
    }),
    (child) => Effect.sync(() => child.kill("SIGKILL")),
  )
