import { spawn } from "node:child_process"
import { SandboxError } from "@proctor/core"
import { Effect } from "effect"
import { onPath } from "./onPath.js"

/**
 * The program that relays the sandbox's `127.0.0.1:PORT` to the interceptor's unix socket on the host (a filesystem
 * socket is reachable from any network namespace). Nothing else is routed, so the interceptor is all the sandbox
 * can reach. `socat` is the tool made for this and starts in a millisecond; without it, Node runs the same relay
 * (20–30 ms to start, which an agent rollout waits for before its agent starts).
 */
export type RelayProgram = "socat" | "node"

const NODE_RELAY = `
const net = require("node:net")
const [port, socketPath] = process.argv.slice(-2)
const server = net.createServer({ noDelay: true }, (inside) => {
  const host = net.connect(socketPath)
  inside.pipe(host).pipe(inside)
  const close = () => { inside.destroy(); host.destroy() }
  inside.on("error", close); host.on("error", close); inside.on("close", close); host.on("close", close)
})
server.on("error", (e) => { process.stderr.write(String(e) + "\\n"); process.exit(1) })
server.listen(Number(port), "127.0.0.1", () => process.stderr.write("listening on 127.0.0.1:" + port + "\\n"))
`

const relayArgv = (program: RelayProgram, port: number, socketPath: string): ReadonlyArray<string> =>
  program === "socat"
    ? [
        "socat",
        // Notices on stderr: its "listening on" line says it is ready.
        "-d",
        "-d",
        `TCP-LISTEN:${port},bind=127.0.0.1,reuseaddr,fork,nodelay`,
        `UNIX-CONNECT:${socketPath}`,
      ]
    : [process.execPath, "-e", NODE_RELAY, String(port), socketPath]

/** `socat` when it is on the PATH, else Node. */
export const defaultRelayProgram = (): RelayProgram => (onPath("socat") ? "socat" : "node")

/** Both relays say this on stderr once they listen. */
const LISTENING = /listening on/

/**
 * Runs the relay under a shell that waits on its stdin, a pipe proctor holds: when proctor dies, even by `kill -9`,
 * the pipe closes and the shell ends its process group (the relay, and socat's children). Nothing else would: the
 * relay is in no sandbox's pid namespace or container, so neither teardown nor prune reaches it.
 */
const LIFELINE = '"$@" & read -r _; kill 0'

/**
 * Starts the relay in the network namespace of host pid `pid` (a container's init, a bwrap sandbox's first
 * process) and waits until it listens. It runs in a process group of its own, killed whole when the scope closes
 * (socat forks a child per connection), or by its lifeline when proctor dies first.
 */
export const startInterceptorRelay = (
  pid: number,
  interceptor: { readonly socketPath: string; readonly port: number },
  program: RelayProgram,
) =>
  Effect.acquireRelease(
    Effect.async<ReturnType<typeof spawn>, SandboxError>((resume) => {
      const child = spawn(
        "nsenter",
        [
          `--net=/proc/${pid}/ns/net`,
          "--",
          "/bin/sh",
          "-c",
          LIFELINE,
          "sh",
          ...relayArgv(program, interceptor.port, interceptor.socketPath),
        ],
        { stdio: ["pipe", "ignore", "pipe"], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, detached: true },
      )
      let stderr = ""
      let listening = false
      const fail = (message: string, cause?: unknown) =>
        resume(Effect.fail(new SandboxError({ reason: "StartFailed", message, cause })))
      child.stderr?.on("data", (chunk: Buffer) => {
        // Only the start is kept for a message; socat notes every connection after it.
        if (listening) return
        stderr += chunk.toString()
        if (LISTENING.test(stderr)) {
          listening = true
          resume(Effect.succeed(child))
        }
      })
      child.once("error", (cause) =>
        fail(`the interceptor relay (${program}) would not start: ${cause.message}`, cause),
      )
      child.once("exit", (code) =>
        fail(`the interceptor relay (${program}) exited (${code}) before listening: ${stderr.trim()}`),
      )
      return Effect.sync(() => killGroup(child))
    }),
    (child) => Effect.sync(() => killGroup(child)),
  )

const killGroup = (child: ReturnType<typeof spawn>) => {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, "SIGKILL")
  } catch {
    // Already gone.
  }
}
