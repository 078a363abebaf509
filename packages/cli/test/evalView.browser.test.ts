import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { launchChromium, screenshotPath } from "@proctor/browser-test"
import { waitFor } from "@proctor/test-kit"
import {
  cleanEnv,
  ensureBuilt,
  killStrayClis,
  startCli,
  startZeroTaskApp,
  type TestTaskApp,
} from "./fixtures/harness.js"

const TASK_APP_KEY = "view-browser-key"

let tmp: string
let app: TestTaskApp

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-view-browser-"))
  app = await startZeroTaskApp({ apiKey: TASK_APP_KEY })
}, 300_000)

afterAll(async () => {
  killStrayClis()
  await app.close()
  rmSync(tmp, { recursive: true, force: true })
})

describe("proctor eval --view in Chromium", () => {
  it("updates while rollouts finish: progress, what is in flight, the rows", async () => {
    // Two rollouts finish, the next two are held in flight until released.
    app.holdAfter(app.served.length + 2)
    const args = ["eval", "--url", app.url, "--seeds", "0-3", "--concurrency", "2", "--no-intercept", "--view"]
    const run = startCli([...args, "--run-dir", join(tmp, "run")], {
      env: cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY }),
    })
    await waitFor("the viewer's URL", () => /viewer: (http\S+)/.test(run.stderr()))
    const url = /viewer: (http\S+)/.exec(run.stderr())![1]!
    const chromium = await launchChromium()
    try {
      const page = await chromium.newPage()
      await page.goto(url)
      await page.locator('[data-testid="run-progress"][data-done="2"][data-planned="4"]').waitFor()
      await page.locator('[data-testid="inflight-row"][data-state="running"]').nth(1).waitFor()
      expect(await page.getByTestId("inflight-row").count()).toBe(2)
      await page.screenshot({ path: screenshotPath("eval-view-in-flight") })

      app.open()
      // Once the run has finished, the live panel gives way to the summary of all four.
      await page.getByTestId("summary-rollouts").getByText("4 of 4").waitFor()
      await page.getByTestId("live-panel").waitFor({ state: "detached" })
      await page.goto(`${url}#/rollouts`)
      await page.locator('[data-testid="rollout-count"][data-count="4"]').waitFor()
      await page.screenshot({ path: screenshotPath("eval-view-done") })
    } finally {
      await chromium.close()
    }
    await waitFor("the run's end", () => run.stderr().includes("the viewer stays at"))
    run.child.kill("SIGINT")
    expect((await run.done).code).toBe(0)
  })
})
