import { afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import type { EvalResult } from "@proctor/core"
import { testResult } from "@proctor/test-kit"
import { Effect } from "effect"
import { createApiKey, JobDatabase, JobStore, MAX_ROWS_PER_COMMIT, RolloutStore } from "../src/index.js"
import { storedJobConfig, tempDir } from "./api.harness.js"
import { children, ensureBuilt, memoryOf, startServerProcess } from "./jobs.process.js"

const ROWS = 100_000

const row = (seed: number): EvalResult =>
  testResult({
    seed,
    score: seed % 3 === 0 ? 1 : 0,
    latency_ms: 12.5,
    tokens: 100,
    cost_usd: 0.0001,
    run_id: `bulk-seed-${seed}-0badf00d`,
  })

/** Counts lines as bytes arrive, keeping nothing: the client side must not be what holds the rows. */
const countLines = async (response: Response) => {
  let lines = 0
  let bytes = 0
  let last = ""
  const decoder = new TextDecoder()
  const reader = response.body!.getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    bytes += value.byteLength
    const text = decoder.decode(value, { stream: true })
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++
    last = (last + text).slice(-400)
  }
  return { lines, bytes, last }
}

describe("results of a 100,000-rollout job", () => {
  beforeAll(() => ensureBuilt(), 300_000)
  afterEach(() => {
    for (const child of children) child.kill("SIGKILL")
  })

  it("stream row by row from the database as JSONL and as JSON, in flat server memory", async () => {
    const dir = tempDir()
    try {
      // A JS heap (72 MB) that the server (~49 MB at rest since core carries the price table, the graders and the
      // dataset readers) plus the rows (~33 MB of JSON) would overflow if it held them. At 64 MB a stream's own
      // working set (up to ~64 MB live seen in a full GC mid-stream) ran out about one time in three.
      const server = await startServerProcess(dir.path, [], ["--max-old-space-size=72"])
      const owner = await createApiKey({ dataDir: dir.path, name: "bulk" })
      const seeds = Array.from({ length: ROWS }, (_, i) => i)
      const config = storedJobConfig(seeds, {
        app_id: "bulk",
        concurrency: 64,
        return_trace: false,
      })
      // Written straight into the same SQLite file (WAL allows a second connection) as a finished job.
      await Effect.runPromise(
        Effect.provide(
          Effect.gen(function* () {
            const store = yield* JobStore
            const rollouts = yield* RolloutStore
            const createdAt = new Date().toISOString()
            yield* store.insertJob({
              id: "eval-bulk",
              ownerKeyId: owner.id,
              config,
              secretsSealed: "v1.unused",
              planned: ROWS,
              numSeeds: ROWS,
              createdAt,
            })
            yield* store.finishJob("eval-bulk", { status: "completed", error: null, completedAt: createdAt })
            for (let from = 0; from < ROWS; from += MAX_ROWS_PER_COMMIT) {
              const batch = seeds.slice(from, from + MAX_ROWS_PER_COMMIT).map((seed) => ({ result: row(seed) }))
              yield* rollouts.upsertResults("eval-bulk", batch)
            }
          }),
          JobDatabase.layerSqlite(dir.path),
        ),
      )
      const headers = { authorization: `Bearer ${owner.key}` }
      const pid = server.child.pid!
      const before = memoryOf(pid)
      // A broken stream says what the server said (a crash, a heap limit) instead of only "terminated".
      const linesOf = (query: string) =>
        fetch(`${server.url}/api/eval/jobs/eval-bulk/results${query}`, { headers })
          .then(countLines)
          .catch((error: unknown) => {
            throw new Error(`results${query} broke off (${String(error)}); server stderr: ${server.stderr()}`)
          })

      const jsonl = await linesOf("?format=jsonl")
      expect(jsonl.lines).toBe(ROWS)
      expect(jsonl.last).toContain(`"seed":${ROWS - 1},`)
      const afterJsonl = memoryOf(pid)

      // Again: memory held per request would add up.
      expect((await linesOf("?format=jsonl")).lines).toBe(ROWS)
      const json = await linesOf("")
      expect(json.bytes).toBeGreaterThan(jsonl.bytes)
      expect(json.last.endsWith("]}")).toBe(true)
      const afterJson = memoryOf(pid)

      if (before !== null && afterJsonl !== null && afterJson !== null) {
        const bodyMb = jsonl.bytes / 1024 / 1024
        const growthMb = (Math.max(afterJsonl.peakKb, afterJson.peakKb) - before.peakKb) / 1024
        console.log(
          `100k rows: ${bodyMb.toFixed(1)} MB of JSONL streamed 2× and once as JSON; server peak RSS ${(before.peakKb / 1024).toFixed(0)} → ${(afterJson.peakKb / 1024).toFixed(0)} MB`,
        )
        expect(growthMb).toBeLessThan(bodyMb)
      }
      server.child.kill("SIGTERM")
      await server.exited
    } finally {
      dir.remove()
    }
  }, 180_000)
})
