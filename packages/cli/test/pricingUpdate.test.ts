import { existsSync, readFileSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { cleanEnv, ensureBuilt, runCli } from "./fixtures/harness.js"

/** genai-prices' format, one provider and model: served on loopback in place of the published table. */
const table = [
  {
    id: "openai",
    name: "OpenAI",
    api_pattern: "https://api\\.openai\\.com",
    models: [{ id: "gpt-9", match: { equals: "gpt-9" }, prices: { input_mtok: 3, output_mtok: 12 } }],
  },
]

let server: Server
let base: string
let hits = 0

beforeAll(async () => {
  ensureBuilt()
  server = createServer((req, res) => {
    hits++
    if (req.url === "/data.json") res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(table))
    else res.writeHead(500).end("down for maintenance")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 60_000)

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe("proctor pricing update", () => {
  it("fetches the table from PROCTOR_PRICES_URL and keeps it where PROCTOR_PRICES_FILE says", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "proctor-prices-")), "kept", "prices.json")
    const result = await runCli(["pricing", "update"], {
      env: cleanEnv({ PROCTOR_PRICES_URL: `${base}/data.json`, PROCTOR_PRICES_FILE: file }),
    })
    expect(result.code, result.stderr).toBe(0)
    const today = new Date().toISOString().slice(0, 10)
    expect(result.stdout).toBe(`prices as of ${today}: 1 models of 1 providers, kept in ${file}\n`)
    const kept = JSON.parse(readFileSync(file, "utf8")) as { source: string; providers: unknown }
    expect(kept).toMatchObject({ source: `${base}/data.json`, providers: table })
  }, 60_000)

  it("says why it failed, exits 1 and leaves no file, when the source is down", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "proctor-prices-")), "prices.json")
    const before = hits
    const result = await runCli(["pricing", "update", "--url", `${base}/gone.json`, "--file", file])
    expect(hits).toBe(before + 1)
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`proctor pricing update: ${base}/gone.json answered 500; runs keep the table they had\n`)
    expect(existsSync(file)).toBe(false)
  }, 60_000)
})
