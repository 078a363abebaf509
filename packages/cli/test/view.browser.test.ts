import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { launchChromium, screenshotPath } from "@proctor/browser-test"
import { testResult as result, waitFor, writeRun } from "@proctor/test-kit"
import { Effect, Exit, Scope } from "effect"
import { ensureBuilt, killStrayClis, startCli } from "./fixtures/harness.js"

let tmp: string
const scope = Effect.runSync(Scope.make())

beforeAll(() => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-view-browser-"))
}, 300_000)

afterAll(async () => {
  killStrayClis()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(tmp, { recursive: true, force: true })
})

describe("proctor view in Chromium", () => {
  it("takes the run heads and the first rows from what the page preloaded, asking for each once", async () => {
    const run = await Effect.runPromise(Scope.extend(writeRun(join(tmp, "run"), [0, 1, 2, 3, 4]), scope))
    for (const seed of [0, 1, 2, 3, 4]) await Effect.runPromise(run.add(result({ seed, score: seed % 2 }), 2))
    const view = startCli(["view", run.dir])
    await waitFor("the viewer's URL", () => /proctor view: (http\S+)/.test(view.stdout()))
    const url = /proctor view: (http\S+)/.exec(view.stdout())![1]!
    const chromium = await launchChromium()
    try {
      const page = await chromium.newPage()
      const asked: Array<string> = []
      page.on("request", (request) => asked.push(request.url().slice(url.length)))
      await page.goto(`${url}#/rollouts`)
      await page.locator('[data-testid="rollout-count"][data-count="5"]').waitFor()
      await page.screenshot({ path: screenshotPath("view-table") })
      // A preload the script did not take shows as a request twice, or as one for a path the script never asks.
      expect(asked.filter((path) => path !== "").sort()).toEqual([
        "api/events",
        "api/runs",
        "api/runs/0/rows?from=0&limit=500",
      ])
    } finally {
      await chromium.close()
    }
    view.child.kill("SIGINT")
    expect((await view.done).code).toBe(0)
  })
})
