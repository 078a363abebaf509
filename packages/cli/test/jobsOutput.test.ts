import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { zipSync } from "fflate"
import { extractTraces } from "../src/backend/extractTraces.js"
import { cancelText, formatJobDetail } from "../src/backend/formatJobs.js"

describe("jobs output a new user reads", () => {
  it("jobs show gives seeds as ranges, not one per line", () => {
    const seeds = [...Array.from({ length: 284 }, (_, i) => i), 300, 302, 303]
    const text = formatJobDetail({ job_id: "j1", status: "completed" } as never, { seeds, app_id: "math" })
    expect(text).toContain('"seeds": "0-283,300,302-303"')
    expect(text.split("\n").length).toBeLessThan(30)
  })

  it("jobs traces with no traces creates no folder", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "proctor-traces-")), "out")
    const written = await Effect.runPromise(extractTraces(zipSync({}), dir))
    expect(written).toEqual([])
    expect(existsSync(dir)).toBe(false)
  })

  it("cancelling a finished job says it had already finished", () => {
    expect(cancelText("j1", "completed", "completed")).toBe(
      "job j1 had already finished (completed); nothing to cancel",
    )
    expect(cancelText("j2", "running", "cancelled")).toBe("cancel requested: job j2 is cancelled")
  })
})
