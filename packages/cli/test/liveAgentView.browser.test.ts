import { cpSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { launchChromium, screenshotPath } from "@proctor/browser-test"
import { waitFor } from "@proctor/test-kit"
import { agentRunFixture } from "./fixtures/agentRuns.js"
import { cleanEnv, repoRoot, startCli } from "./fixtures/harness.js"

// The baseline model answers each turn after 1.5 s, so the agent's rollout is in flight for several turns.
const shared = agentRunFixture(
  "live-agent-view",
  (tmp) =>
    cpSync(join(repoRoot, "examples/tasks/find-the-secret"), join(tmp, "tasks/find-the-secret"), { recursive: true }),
  { BASELINE_LATENCY_MS: "1500" },
)

describe("proctor eval --view of an agent run in Chromium", () => {
  it("shows the running rollout's turns, last step, tokens, cost and time left, linked to its timeline", async () => {
    const args = ["eval", "--tasks", join(shared.tmp, "tasks"), "--agent", "builtin", "--sandbox", "local"]
    const pricing = join(repoRoot, "examples/baseline-model/pricing.json")
    const model = ["--model", "baseline", "--inference-url", shared.model.url, "--pricing", pricing, "--max-turns", "6"]
    const run = startCli([...args, ...model, "--view", "--run-dir", join(shared.tmp, "run")], { env: cleanEnv() })
    await waitFor("the viewer's URL", () => /viewer: (http\S+)/.test(run.stderr()))
    const url = /viewer: (http\S+)/.exec(run.stderr())![1]!
    const chromium = await launchChromium()
    try {
      const page = await chromium.newPage()
      await page.goto(url)
      // The panel is refreshed as the run's events arrive: wait for a second turn, so a step of the first is behind it.
      const row = page.locator('[data-testid="inflight-row"][data-seed="0"][data-state="running"]')
      await row.locator('[data-testid="inflight-turns"]', { hasText: /^[2-6]$/ }).waitFor({ timeout: 60_000 })
      const lastStep = row.getByTestId("inflight-last-step")
      expect(await lastStep.getAttribute("data-kind")).toMatch(/^(model|tool|command)$/)
      expect((await lastStep.textContent())?.trim()).not.toBe("")
      const cells = await row.locator("td").allTextContents()
      // seed, attempt, state, for, turns, last step, tokens, cost, time left (the task's 60 s agent limit).
      expect(Number(cells[6]!.replace(/,/g, ""))).toBeGreaterThan(0)
      expect(cells[7]).toMatch(/^\$/)
      expect(cells[8]).toMatch(/^\d+(\.\d)? s$/)
      await page.screenshot({ path: screenshotPath("eval-view-agent-in-flight") })

      // Its seed links to the rollout's timeline so far.
      await row.locator("a").first().click()
      await page.getByTestId("timeline").waitFor()
      expect(await page.getByTestId("timeline-entry").count()).toBeGreaterThan(0)
    } finally {
      await chromium.close()
    }
    await waitFor("the run's end", () => run.stderr().includes("the viewer stays at"), { timeoutMs: 120_000 })
    run.child.kill("SIGINT")
    expect((await run.done).code).toBe(0)
  })
})
