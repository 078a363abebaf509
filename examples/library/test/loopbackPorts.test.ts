import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repo } from "./codeBlocks.js"
import { moveLoopbackPorts, portsUsedIn } from "./loopbackPorts.js"

const block = [
  "pnpm example:model                              # http://127.0.0.1:8001/v1",
  "ENVIRONMENT_API_KEY=dev pnpm example:math       # http://127.0.0.1:8000",
  "pnpm proctor serve --data-dir runs/team --port 8010",
  "pnpm proctor eval --url http://127.0.0.1:9 --seeds 0-4",
  "const { url } = await app.listen({ port: 8002 })",
].join("\n")
/** The repository's own scripts: `example:model` defaults to 8001, `example:math` to 8000. */
const scripts = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).scripts as Record<string, string>

describe("moving the docs' loopback ports", () => {
  it("finds every fixed port from 1024 up, in URLs, --port and listen({ port })", () => {
    expect(portsUsedIn([block])).toEqual([8000, 8001, 8002, 8010])
  })

  it("rewrites each to a free port, and starts the examples' scripts on theirs", async () => {
    const { ports, rewrite } = await moveLoopbackPorts(portsUsedIn([block]), scripts)
    const to = (port: number) => ports.get(port)!
    expect(new Set(ports.values()).size).toBe(4)
    expect(rewrite(block).split("\n")).toEqual([
      `PORT=${to(8001)} pnpm example:model                              # http://127.0.0.1:${to(8001)}/v1`,
      `ENVIRONMENT_API_KEY=dev PORT=${to(8000)} pnpm example:math       # http://127.0.0.1:${to(8000)}`,
      `pnpm proctor serve --data-dir runs/team --port ${to(8010)}`,
      "pnpm proctor eval --url http://127.0.0.1:9 --seeds 0-4",
      `const { url } = await app.listen({ port: ${to(8002)} })`,
    ])
  })

  it("moves a port that another process holds to one that is free", async () => {
    const holder = createServer()
    const held = await new Promise<number>((resolve) =>
      holder.listen(0, "127.0.0.1", () => resolve((holder.address() as { port: number }).port)),
    )
    try {
      const { ports } = await moveLoopbackPorts([held], {})
      const moved = ports.get(held)!
      expect(moved).not.toBe(held)
      const probe = createServer()
      await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(moved, "127.0.0.1", resolve))
      await new Promise<void>((resolve) => probe.close(() => resolve()))
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()))
    }
  })
})
