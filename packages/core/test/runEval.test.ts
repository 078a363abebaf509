import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { testRunConfig } from "@proctor/test-kit"
import type { EvalRunConfig } from "../src/config/EvalRunConfig.js"
import { runEval } from "../src/eval/EvalRun.js"
import type { RunEvent } from "../src/events/RunEvents.js"
import { startFaultyTaskApp } from "./fixtures/faultyTaskApp.js"

const configFor = (url: string, seeds: ReadonlyArray<number>): EvalRunConfig =>
  testRunConfig({ app_id: "promise", task_app_url: url, seeds, concurrency: 4 })

describe("runEval (the Promise API)", () => {
  it("runs a whole eval and delivers every event to the callback, in order", async () => {
    const app = await startFaultyTaskApp({ script: () => "ok" })
    try {
      const events: Array<RunEvent> = []
      const runDir = join(mkdtempSync(join(tmpdir(), "proctor-promise-")), "run")
      const outcome = await runEval(configFor(app.url, [0, 1, 2, 3, 4, 5, 6, 7]), {
        runDir,
        onEvent: (e) => events.push(e),
      })
      expect(outcome.summary.completed).toBe(8)
      expect(outcome.interrupted).toBe(false)
      expect(events[0]?._tag).toBe("RunStarted")
      expect(events.at(-1)?._tag).toBe("RunFinished")
      expect(events.filter((e) => e._tag === "RolloutFinished")).toHaveLength(8)
      expect(readFileSync(join(runDir, "results.jsonl"), "utf8").trim().split("\n")).toHaveLength(8)
    } finally {
      await app.close()
    }
  })

  it("an aborted signal stops the run with finished results kept and the rest missing", async () => {
    const app = await startFaultyTaskApp({ script: () => "ok" })
    try {
      const controller = new AbortController()
      const runDir = join(mkdtempSync(join(tmpdir(), "proctor-promise-")), "run")
      const seeds = Array.from({ length: 5_000 }, (_, i) => i)
      const running = runEval(configFor(app.url, seeds), {
        runDir,
        signal: controller.signal,
        graceMs: 5_000,
        onEvent: (e) => {
          if (e._tag === "RolloutFinished" && e.progress.done === 4) controller.abort()
        },
      })
      const outcome = await running
      expect(outcome.interrupted).toBe(true)
      expect(outcome.summary.completed).toBeGreaterThanOrEqual(4)
      expect(outcome.summary.missing).toBeGreaterThan(0)
      expect(outcome.summary.completed + outcome.summary.missing).toBe(5_000)
      const lines = readFileSync(join(runDir, "results.jsonl"), "utf8").trim().split("\n")
      expect(lines).toHaveLength(outcome.summary.completed)
    } finally {
      await app.close()
    }
  })
})
