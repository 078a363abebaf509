import { type ChildProcess, execFileSync, spawnSync } from "node:child_process"
import { createServer, type Server } from "node:net"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { listNamespaces, type NetworkNamespace, openNamespace, sweepLeakedNamespaces, withNamespace } from "./netns.js"

/** A line-oriented TCP client run inside the namespace: stdin lines go to the server, its answers come out on stdout. */
const CLIENT = `
const socket = require("node:net").createConnection({ host: process.argv[1], port: Number(process.argv[2]) })
socket.on("connect", () => console.log("connected"))
socket.on("data", (data) => process.stdout.write(data))
socket.on("error", (error) => console.log("error " + error.code))
process.stdin.on("data", (data) => socket.write(data))
`

const linesOf = (child: ChildProcess) => {
  let output = ""
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk
  })
  return () => output
}

describe("the network-namespace fixture", () => {
  let echo: Server
  let echoPort: number
  let namespace: NetworkNamespace | null = null

  beforeAll(async () => {
    echo = createServer((socket) => socket.pipe(socket))
    echoPort = await new Promise<number>((resolve) =>
      echo.listen(0, "127.0.0.1", () => resolve((echo.address() as { port: number }).port)),
    )
  })
  afterAll(() => new Promise<void>((resolve) => echo.close(() => resolve())))
  afterEach(async () => {
    await namespace?.close()
    namespace = null
  })

  it("reaches the host's loopback services through a relay, and stalls then resumes across a cut", async () => {
    namespace = await openNamespace()
    // The host's own Redis, on 127.0.0.1 only, answers from inside through the relay.
    const redisPort = await namespace.forward(6379)
    const ping = (port: number) =>
      namespace!.run("redis-cli", ["-h", namespace!.hostAddress, "-p", String(port), "PING"], 3_000)
    expect((await ping(redisPort)).output.trim()).toBe("PONG")
    // Loopback is the namespace's own: nothing of the host's is there.
    expect((await namespace.run("redis-cli", ["-p", "6379", "PING"])).output).not.toContain("PONG")

    const port = await namespace.forward(echoPort)
    const client = namespace.exec("node", ["-e", CLIENT, namespace.hostAddress, String(port)], {
      stdio: ["pipe", "pipe", "inherit"],
    })
    const output = linesOf(client)
    try {
      await waitFor("the client to connect", () => (output().includes("connected") ? true : undefined))
      client.stdin!.write("before\n")
      await waitFor("the echo before the cut", () => (output().includes("before\n") ? true : undefined))

      namespace.cut()
      client.stdin!.write("during\n")
      // A new connection gets nowhere while the link is down.
      expect((await ping(redisPort)).output).not.toContain("PONG")
      expect(output()).not.toContain("during")

      namespace.reconnect()
      // The connection made before the cut carries on: TCP retransmits what the cut swallowed.
      await waitFor("the echo after reconnecting", () => (output().includes("during\n") ? true : undefined), 30_000)
      expect(output()).not.toContain("error")
    } finally {
      client.kill("SIGKILL")
    }
  })

  it("lets the host reach a server inside the namespace (a worker's interceptor, say)", async () => {
    namespace = await openNamespace()
    const server = namespace.exec(
      "node",
      [
        "-e",
        `require("node:http").createServer((q, s) => s.end("inside")).listen(8080, "0.0.0.0", () => console.log("listening"))`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    )
    const output = linesOf(server)
    await waitFor("the server inside to listen", () => (output().includes("listening") ? true : undefined))
    expect(await (await fetch(`http://${namespace.namespaceAddress}:8080/`)).text()).toBe("inside")
  })

  it("closing kills what runs inside and deletes the namespace and its veth pair, even when the test throws", async () => {
    let name = ""
    let inside: ChildProcess | null = null
    await expect(
      withNamespace(async (ns) => {
        name = ns.name
        inside = ns.exec("sleep", ["600"], { stdio: "ignore" })
        await waitFor("the process inside to start", () =>
          execFileSync("ip", ["netns", "pids", ns.name], { encoding: "utf8" }).trim() !== "" ? true : undefined,
        )
        throw new Error("the test failed")
      }),
    ).rejects.toThrow("the test failed")
    expect(listNamespaces()).not.toContain(name)
    await waitFor("the process inside to die", () =>
      (inside as ChildProcess | null)?.exitCode !== null || (inside as ChildProcess | null)?.signalCode !== null
        ? true
        : undefined,
    )
    // The kernel destroys the veth pair once the namespace's last user is gone, a moment after the delete.
    await waitFor("the veth pair to go", () =>
      execFileSync("ip", ["-o", "link", "show"], { encoding: "utf8" }).includes(`pth${name.slice(-6)}`)
        ? undefined
        : true,
    )
  })

  it("deletes namespaces whose test process died without closing them", () => {
    const dead = spawnSync("true").pid!
    const leaked = `proctor-test-${dead}-leaked`
    execFileSync("ip", ["netns", "add", leaked])
    try {
      sweepLeakedNamespaces()
      expect(listNamespaces()).not.toContain(leaked)
    } finally {
      spawnSync("ip", ["netns", "delete", leaked])
    }
  })
})
