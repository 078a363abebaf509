import { readFileSync } from "node:fs"
import { mkdtemp, readFile, writeFile } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import { createRequire } from "node:module"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  activePriceTable,
  BUNDLED_PRICE_TABLE,
  DEFAULT_PRICES_URL,
  defaultPriceTablePath,
  updatePriceTable,
  useBundledPriceTable,
  usePriceTableFile,
} from "../src/pricing/PriceTable.js"
import { Pricing } from "../src/pricing/Pricing.js"

/** A one-provider table in genai-prices' format, served on loopback in place of the real one. */
const fixtureTable = [
  {
    id: "openai",
    name: "OpenAI",
    api_pattern: "https://api\\.openai\\.com",
    model_match: { starts_with: "gpt-" },
    models: [{ id: "gpt-9", match: { starts_with: "gpt-9" }, prices: { input_mtok: 3, output_mtok: 12 } }],
  },
]

const serve = (status: number, body: string) =>
  Effect.acquireRelease(
    Effect.async<Server>((resume) => {
      const server = createServer((_, res) => res.writeHead(status, { "content-type": "application/json" }).end(body))
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.promise(() => new Promise((done) => server.close(done))),
  ).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/data.json`))

const tempPath = () =>
  Effect.promise(() => mkdtemp(join(tmpdir(), "proctor-prices-"))).pipe(Effect.map((d) => join(d, "prices.json")))

describe("the maintained price table", () => {
  it("names the installed genai-prices version", () => {
    const require = createRequire(import.meta.url)
    const entry = require.resolve("@pydantic/genai-prices")
    const manifest = JSON.parse(readFileSync(join(entry, "../../package.json"), "utf8")) as { version: string }
    expect(BUNDLED_PRICE_TABLE.source).toContain(` ${manifest.version} `)
    expect(activePriceTable()).toEqual(BUNDLED_PRICE_TABLE)
  })

  it("fetches, by default, from where genai-prices' own auto-update reads", async () => {
    const { REMOTE_DATA_JSON_URL } = await import("@pydantic/genai-prices")
    expect(DEFAULT_PRICES_URL).toBe(REMOTE_DATA_JSON_URL)
  })

  it("prices models released in 2026, and leaves unknown ones unpriced", async () => {
    const pricing = await Effect.runPromise(Pricing.make())
    expect(pricing.lookup("anthropic", "claude-opus-4-6")).toEqual({ input: 5e-6, output: 2.5e-5, cached_input: 5e-7 })
    expect(pricing.lookup("openai", "gpt-5.2")?.output).toBe(1.4e-5)
    expect(
      pricing.costOf("local", "baseline", {
        prompt_tokens: 5,
        completion_tokens: 5,
        total_tokens: 10,
        cached_tokens: null,
        reasoning_tokens: null,
      }),
    ).toBeNull()
  })

  it("keeps its copy under PROCTOR_PRICES_FILE or the user's cache directory", () => {
    expect(defaultPriceTablePath({ PROCTOR_PRICES_FILE: "/x/p.json" })).toBe("/x/p.json")
    expect(defaultPriceTablePath({ XDG_CACHE_HOME: "/c" })).toBe("/c/proctor/prices.json")
    expect(defaultPriceTablePath({ HOME: "/h" })).toBe("/h/.cache/proctor/prices.json")
  })

  it.scoped("refuses a failed or malformed answer and writes nothing", () =>
    Effect.gen(function* () {
      const path = yield* tempPath()
      const down = yield* Effect.flip(updatePriceTable({ url: yield* serve(503, "{}"), path }))
      expect(down.reason).toBe("BadResponse")
      expect(down.message).toContain("answered 503")
      const junk = yield* Effect.flip(updatePriceTable({ url: yield* serve(200, `{"not":"a list"}`), path }))
      expect(junk.message).toContain("not a genai-prices provider list")
      expect(yield* usePriceTableFile(path)).toEqual(BUNDLED_PRICE_TABLE)
    }),
  )

  it.effect("refuses a damaged local copy by name", () =>
    Effect.gen(function* () {
      const path = yield* tempPath()
      yield* Effect.promise(() => writeFile(path, "{"))
      const error = yield* Effect.flip(usePriceTableFile(path))
      expect(error.message).toContain(`${path}: not valid JSON`)
    }),
  )

  // Installing a table replaces the process's prices: the bundled table is put back after, for the files run next.
  it.scoped("update fetches the table once, and later runs price from the kept copy", () =>
    Effect.gen(function* () {
      yield* Effect.addFinalizer(() => Effect.asVoid(useBundledPriceTable()))
      const path = yield* tempPath()
      const url = yield* serve(200, JSON.stringify(fixtureTable))
      const updated = yield* updatePriceTable({ url, path, now: new Date("2026-11-27T10:00:00Z") })
      expect(updated).toEqual({ providers: 1, models: 1, as_of: "2026-11-27" })
      const stored = JSON.parse(yield* Effect.promise(() => readFile(path, "utf8")))
      expect(stored.source).toBe(url)

      const info = yield* usePriceTableFile(path)
      expect(info).toEqual({ source: url, as_of: "2026-11-27" })
      expect(activePriceTable()).toEqual(info)
      const pricing = yield* Pricing.make()
      expect(pricing.lookup("openai", "gpt-9-2026-11-01")).toEqual({ input: 3e-6, output: 1.2e-5 })
      // The fetched table is the whole table: what it lacks is unpriced, not priced from the bundled copy.
      expect(pricing.lookup("openai", "gpt-4o")).toBeUndefined()
      expect(yield* useBundledPriceTable()).toEqual(BUNDLED_PRICE_TABLE)
      expect((yield* Pricing.make()).lookup("openai", "gpt-4o")).toBeDefined()
    }),
  )
})
