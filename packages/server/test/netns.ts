import { type ChildProcess, execFileSync, type SpawnOptions, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { createConnection, createServer, type Server, type Socket } from "node:net"

/**
 * A network namespace of a test's own, joined to the host by a veth pair, for network faults a process cannot fake:
 * a worker run inside it (`exec`) reaches the host's services only through the veth, so taking the link down cuts
 * it off mid-connection (packets vanish, nothing is refused), and bringing it up reconnects it.
 *
 * The host's PostgreSQL and Redis listen on 127.0.0.1, which a namespace cannot reach; `forward(port)` opens a TCP
 * relay on the veth's host address to that loopback port, so no service's configuration changes. Needs root
 * (CAP_NET_ADMIN) and iproute2's `ip`.
 *
 * Nothing leaks: `close()` kills every process inside, deletes the namespace (which destroys the veth pair) and
 * stops the relays; it runs on the test process's exit too, and the next test run deletes any namespace whose
 * owner died without closing it (the owner's pid is in the name).
 */
export interface NetworkNamespace {
  readonly name: string
  /** The veth end on the host: what a process inside dials to reach a forwarded service. */
  readonly hostAddress: string
  /** The veth end inside the namespace: what the host dials to reach a server inside. */
  readonly namespaceAddress: string
  /** Spawns `command` inside the namespace (`ip netns exec`). */
  readonly exec: (command: string, args: ReadonlyArray<string>, options?: SpawnOptions) => ChildProcess
  /**
   * Runs `command` inside the namespace to completion (killed after `timeoutMs`). Never synchronously: the relays
   * live on this process's event loop.
   */
  readonly run: (command: string, args: ReadonlyArray<string>, timeoutMs?: number) => Promise<CommandResult>
  /** Relays `hostAddress:port'` to the host's `127.0.0.1:port`; resolves to the port to dial from inside. */
  readonly forward: (port: number) => Promise<number>
  /** Takes the link down: in-flight connections stall, new ones time out. */
  readonly cut: () => void
  readonly reconnect: () => void
  readonly close: () => Promise<void>
}

export interface CommandResult {
  readonly code: number | null
  readonly output: string
}

const NAME_PREFIX = "proctor-test-"

const ip = (args: ReadonlyArray<string>) =>
  execFileSync("ip", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 })

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

export const listNamespaces = (): ReadonlyArray<string> =>
  ip(["netns", "list"])
    .split("\n")
    .map((line) => line.split(" ")[0]!)
    .filter((name) => name !== "")

/** Kills what runs inside, then deletes the namespace; its veth pair goes with it. Idempotent. */
export const deleteNamespace = (name: string) => {
  try {
    for (const pid of ip(["netns", "pids", name])
      .split("\n")
      .filter((line) => line !== "")) {
      try {
        process.kill(Number(pid), "SIGKILL")
      } catch {
        // Already gone.
      }
    }
    ip(["netns", "delete", name])
  } catch {
    // Already deleted.
  }
}

/** Namespaces of test runs that died without closing theirs (SIGKILL, a crash): deleted before making new ones. */
export const sweepLeakedNamespaces = () => {
  for (const name of listNamespaces()) {
    const owner = new RegExp(`^${NAME_PREFIX}(\\d+)-`).exec(name)
    if (owner !== null && !isAlive(Number(owner[1]))) deleteNamespace(name)
  }
}

const open = new Set<string>()
let exitHookInstalled = false
const installExitHook = () => {
  if (exitHookInstalled) return
  exitHookInstalled = true
  // Synchronous: the last chance when a test run ends without its afterAll (a thrown hook, process.exit).
  process.once("exit", () => {
    for (const name of open) deleteNamespace(name)
  })
}

/** A /30 in 10.213.0.0/16 no interface on the host uses yet. */
const freeSubnet = () => {
  const used = ip(["-o", "-4", "addr", "show"])
  for (let tries = 0; tries < 100; tries++) {
    const block = randomBytes(2).readUInt16BE() & 0x3fff
    const base = `10.213.${block >> 6}.${(block & 0x3f) * 4}`
    const [a, b, c, d] = base.split(".").map(Number) as [number, number, number, number]
    const host = `${a}.${b}.${c}.${d + 1}`
    if (!used.includes(`inet ${host}/`)) return { host, inside: `${a}.${b}.${c}.${d + 2}` }
  }
  throw new Error("no free /30 in 10.213.0.0/16")
}

const relay = (from: Socket, port: number, sockets: Set<Socket>) => {
  const to = createConnection({ host: "127.0.0.1", port })
  for (const socket of [from, to]) {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    socket.on("error", () => {
      from.destroy()
      to.destroy()
    })
  }
  from.pipe(to).pipe(from)
}

export const openNamespace = async (): Promise<NetworkNamespace> => {
  sweepLeakedNamespaces()
  installExitHook()
  const id = randomBytes(3).toString("hex")
  const name = `${NAME_PREFIX}${process.pid}-${id}`
  // Interface names are at most 15 characters.
  const hostLink = `pth${id}`
  const insideLink = `ptn${id}`
  const { host, inside } = freeSubnet()
  open.add(name)
  const relays: Array<Server> = []
  const sockets = new Set<Socket>()
  try {
    ip(["netns", "add", name])
    ip(["link", "add", hostLink, "type", "veth", "peer", "name", insideLink, "netns", name])
    ip(["addr", "add", `${host}/30`, "dev", hostLink])
    ip(["link", "set", hostLink, "up"])
    ip(["-n", name, "addr", "add", `${inside}/30`, "dev", insideLink])
    ip(["-n", name, "link", "set", insideLink, "up"])
    ip(["-n", name, "link", "set", "lo", "up"])
  } catch (error) {
    deleteNamespace(name)
    open.delete(name)
    throw new Error(`cannot make a network namespace (root and iproute2 needed): ${(error as Error).message}`)
  }

  const exec = (command: string, args: ReadonlyArray<string>, options: SpawnOptions = {}) =>
    spawn("ip", ["netns", "exec", name, command, ...args], options)

  return {
    name,
    hostAddress: host,
    namespaceAddress: inside,
    exec,
    run: (command, args, timeoutMs = 10_000) =>
      new Promise<CommandResult>((resolve) => {
        const child = exec(command, args, { stdio: ["ignore", "pipe", "pipe"] })
        let output = ""
        child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
        child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
        child.once("close", (code) => {
          clearTimeout(timer)
          resolve({ code, output })
        })
      }),
    forward: (port) =>
      new Promise<number>((resolve, reject) => {
        const server = createServer((socket) => relay(socket, port, sockets))
        relays.push(server)
        server.once("error", reject)
        server.listen(0, host, () => resolve((server.address() as { port: number }).port))
      }),
    cut: () => {
      ip(["link", "set", hostLink, "down"])
    },
    reconnect: () => {
      ip(["link", "set", hostLink, "up"])
    },
    close: async () => {
      deleteNamespace(name)
      open.delete(name)
      for (const socket of sockets) socket.destroy()
      await Promise.all(relays.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
    },
  }
}

/** Opens a namespace for `use` and closes it however `use` ends. */
export const withNamespace = async <A>(use: (namespace: NetworkNamespace) => Promise<A>): Promise<A> => {
  const namespace = await openNamespace()
  try {
    return await use(namespace)
  } finally {
    await namespace.close()
  }
}
