import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { waitFor } from "@proctor/test-kit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createBaselineModel, type RunningBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { ResponseStore } from "../src/interceptor/internal/ResponseStore.js"

const driver = fileURLToPath(new URL("./fixtures/cacheDriver.mjs", import.meta.url))

interface Tally {
  readonly statuses: Record<string, number>
  readonly cached: number
  readonly calls: number
}

/** A driver process; `lines` grows with its output, `exit` settles when it ends. */
const start = (model: RunningBaselineModel, dir: string, from: number, to: number) => {
  const child: ChildProcess = spawn(process.execPath, [driver, model.url, dir, String(from), String(to), "8"], {
    stdio: ["ignore", "pipe", "inherit"],
  })
  const lines: Array<string> = []
  let partial = ""
  child.stdout!.on("data", (chunk: Buffer) => {
    const text = partial + chunk.toString("utf8")
    const parts = text.split("\n")
    partial = parts.pop() ?? ""
    lines.push(...parts)
  })
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const tally = async (): Promise<Tally> => {
    expect(await exit).toBe(0)
    return JSON.parse(lines.at(-1)!) as Tally
  }
  return { child, lines, exit, tally }
}

/** Every entry of the store (temporary files of interrupted writes aside), checked whole by reading it back. */
const entries = async (dir: string) => {
  const store = new ResponseStore(dir)
  const names = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) =>
    /^[0-9a-f]{64}$/.test(name.split("/").at(-1)!),
  )
  const read = await Promise.all(names.map((name) => store.get(name.split("/").at(-1)!)))
  return { names, unreadable: read.filter((answer) => answer === null).length }
}

describe("response cache shared by processes", () => {
  let model: RunningBaselineModel
  let dir: string
  beforeAll(async () => {
    model = await createBaselineModel().listen()
    dir = mkdtempSync(join(tmpdir(), "proctor-cache-processes-"))
  })
  afterAll(async () => {
    await model.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("two processes fill one cache at once, a third killed mid-write damages nothing", async () => {
    // Two runs at once, over the same 200 questions: both race to store every answer.
    const a = start(model, dir, 0, 200)
    const b = start(model, dir, 0, 200)
    const [ta, tb] = await Promise.all([a.tally(), b.tally()])
    for (const tally of [ta, tb]) expect(tally.statuses).toEqual({ 200: 200 })
    expect((await entries(dir)).names.length).toBe(200)

    // A third run storing 400 new answers, killed while its writes are under way.
    const c = start(model, dir, 200, 600)
    await waitFor("the third run's first 100 calls", () => c.lines.length >= 100, 60_000)
    c.child.kill("SIGKILL")
    await c.exit
    const after = await entries(dir)
    expect(after.unreadable).toBe(0)
    // Answers are stored after they are sent, so some of the 100 the driver saw may not have reached the store.
    expect(after.names.length).toBeGreaterThan(200)

    // A fourth run asks everything: what was stored is answered from the cache, the rest from the model.
    const d = await start(model, dir, 0, 600).tally()
    expect(d.statuses).toEqual({ 200: 600 })
    expect(d.cached).toBe(after.names.length)
    expect((await entries(dir)).unreadable).toBe(0)
  })
})
