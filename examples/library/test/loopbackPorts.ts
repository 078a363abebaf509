import { createServer } from "node:net"

/**
 * The README and the docs use fixed loopback ports (the examples on 8000 and 8001, a task app on 8002, the job
 * server on 8010, the viewer on 8020). Their code blocks run with each of those ports moved to a free one, so
 * they pass while the user's own servers hold the real ones — the README's example servers, another checkout's
 * tests — and never talk to them. Only the numbers change; every other word runs as written.
 */
export interface LoopbackPorts {
  /** README port → the free port the blocks use instead. */
  readonly ports: ReadonlyMap<number, number>
  /** `text` with every use of a moved port rewritten. */
  readonly rewrite: (text: string) => string
}

/** Ports below this are left alone: the docs use them as "nothing listens here" (`http://127.0.0.1:9`). */
const FIRST_MOVED_PORT = 1024

const PORT_USES: ReadonlyArray<RegExp> = [
  /(127\.0\.0\.1:)(\d+)/g, // URLs
  /(--port[ =])(\d+)/g, // `proctor serve|view --port N`
  /(\bport: )(\d+)/g, // `app.listen({ port: N })` in TypeScript blocks
  /(\bPORT \?\? )(\d+)/g, // `app.listen({ port: Number(process.env.PORT ?? N) })`
]

/** A port the system has just handed out as free (bound to port 0, then closed). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** Every fixed port ≥ 1024 that `texts` use, e.g. `[8000, 8001]`. */
export const portsUsedIn = (texts: ReadonlyArray<string>): ReadonlyArray<number> => {
  const found = new Set<number>()
  for (const text of texts) {
    for (const use of PORT_USES) {
      for (const match of text.matchAll(use)) {
        const port = Number(match[2])
        if (port >= FIRST_MOVED_PORT) found.add(port)
      }
    }
  }
  return [...found].sort((a, b) => a - b)
}

/**
 * Moves each of `ports` to a free port. `scripts` are package.json scripts that start a server on a default
 * port (`PORT=${PORT:-8001} node …`): `pnpm NAME` in a block gets `PORT=` of the moved port in front.
 */
export const moveLoopbackPorts = async (
  ports: ReadonlyArray<number>,
  scripts: Readonly<Record<string, string>>,
): Promise<LoopbackPorts> => {
  const moved = new Map<number, number>()
  for (const port of ports) moved.set(port, await freePort())
  const defaults = Object.entries(scripts).flatMap(([name, script]) => {
    const port = Number(/PORT=\$\{PORT:-(\d+)\}/.exec(script)?.[1])
    const to = moved.get(port)
    return to === undefined ? [] : [{ name, to }]
  })
  const rewrite = (text: string) => {
    let out = text
    for (const use of PORT_USES) {
      out = out.replace(use, (whole, prefix: string, port: string) => {
        const to = moved.get(Number(port))
        return to === undefined ? whole : `${prefix}${to}`
      })
    }
    for (const { name, to } of defaults) {
      out = out.replace(
        new RegExp(`(^|[\\s;&|(])pnpm ${name.replace(/[.:]/g, "\\$&")}\\b`, "g"),
        `$1PORT=${to} pnpm ${name}`,
      )
    }
    return out
  }
  return { ports: moved, rewrite }
}
