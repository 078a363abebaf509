import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChromiumSession, launchChromium, screenshotPath } from "@proctor/browser-test"
import { testResult as result, testStep, waitFor, writeRun } from "@proctor/test-kit"
import { Effect, Exit, Scope } from "effect"
import type { Page } from "playwright-core"
import { ensureBuilt, killStrayClis, runCli, startCli } from "./fixtures/harness.js"

const TASK_IDS = ["add-1", "add-2", "mul-1", "div-0"]

let tmp: string
let runs: string
let chromium: ChromiumSession
let url: string
const scope = Effect.runSync(Scope.make())
const inScope = <A>(effect: Effect.Effect<A, never, Scope.Scope>) => Effect.runPromise(Scope.extend(effect, scope))

/**
 * A folder of three runs, started in this order: a task-app run (`baseline`), an agent run with steps, and a library
 * run (`evaluate()`: task ids). Nothing is priced.
 */
const writeRuns = async () => {
  const baseline = await inScope(
    writeRun(join(runs, "baseline"), [0, 1, 2, 3], 1, {
      createdAt: "2026-01-01T10:00:00.000Z",
      config: { app_id: "math", model: "baseline-model" },
    }),
  )
  for (const seed of [0, 1, 2, 3]) {
    await Effect.runPromise(baseline.add(result({ seed, score: seed === 3 ? 1 : 0, latency_ms: 20, tokens: 10 })))
  }
  const agent = await inScope(
    writeRun(join(runs, "agent"), [0, 1], 1, {
      createdAt: "2026-02-01T10:00:00.000Z",
      config: { app_id: "tasks", model: "baseline-model" },
    }),
  )
  agent.step(
    testStep(0, 0, "note", { text: "sandbox started (bwrap)" }),
    testStep(0, 1, "model", {
      text: "Let me look at the files.",
      tool_calls: [{ id: "call_1", name: "bash", arguments: '{"command":"ls /work"}' }],
      tokens: 42,
    }),
    testStep(0, 2, "command", { command: "ls /work", exit_code: 0, stdout: "hello.txt\n", duration_ms: 12 }),
    testStep(0, 3, "tool", { text: "bash", tool_call_id: "call_1", output: "hello.txt" }),
    testStep(0, 4, "command", {
      command: "cat /work/missing.txt",
      exit_code: 1,
      stderr: "cat: /work/missing.txt: No such file or directory\n",
      duration_ms: 8,
    }),
    testStep(0, 5, "note", { text: "max_turns reached" }),
  )
  await Effect.runPromise(
    agent.add(result({ seed: 0, score: 0, stop_reason: "max_turns", turns: 2, messages: 5, latency_ms: 900 }), 2),
  )
  await Effect.runPromise(agent.add(result({ seed: 1, score: 1, stop_reason: "model_ended", turns: 1, messages: 3 })))
  const library = await inScope(
    writeRun(join(runs, "library"), [0, 1, 2, 3], 1, {
      createdAt: "2026-03-01T10:00:00.000Z",
      config: { app_id: "library", model: "baseline-model" },
    }),
  )
  for (const seed of [0, 1, 2, 3]) {
    const score = seed % 2 === 0 ? 1 : 0.25
    await Effect.runPromise(library.add(result({ seed, score, task_id: TASK_IDS[seed]!, latency_ms: 30, tokens: 12 })))
  }
}

/** A page that fails the test on any script error: a broken view must not pass as an empty one. */
const openPage = async (fragment: string, base = url): Promise<Page> => {
  const page = await chromium.newPage()
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(error.message))
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.goto(`${base}#${fragment}`)
  pages.push({ page, errors })
  return page
}
const pages: Array<{ page: Page; errors: Array<string> }> = []

/** The run's index in the viewer (its position in the folder's newest-first order). */
const RUN = { library: 0, agent: 1, baseline: 2 }

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-view-runs-"))
  runs = join(tmp, "runs")
  await writeRuns()
  const view = startCli(["view", runs])
  await waitFor("the viewer's URL", () => /proctor view: (http\S+)/.test(view.stdout()))
  url = /proctor view: (http\S+)/.exec(view.stdout())![1]!
  chromium = await launchChromium()
}, 300_000)

afterAll(async () => {
  for (const { errors } of pages) expect(errors).toEqual([])
  await chromium?.close()
  killStrayClis()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(tmp, { recursive: true, force: true })
})

const texts = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluateAll((all) => all.map((element) => element.textContent?.trim() ?? ""))

describe("proctor view of a folder of runs, in Chromium", () => {
  it("lists the runs newest first with app, model, score, errors and cost; opens one; compares two", async () => {
    const page = await openPage("/")
    await page.getByTestId("run-row").nth(2).waitFor()
    expect(await texts(page, "run-link")).toEqual(["library", "agent", "baseline"])
    const library = page.locator("[data-testid=run-row][data-name=library]")
    expect(await library.textContent()).toContain("library")
    expect(await library.textContent()).toContain("baseline-model")
    expect(await library.getByTestId("run-score").textContent()).toMatch(/^0\.625 ± /)
    // Pass/fail scores (1 of 4): Wilson's interval, given whole since it is not symmetric about the mean.
    const baselineRow = page.locator("[data-testid=run-row][data-name=baseline]")
    expect(await baselineRow.getByTestId("run-score").textContent()).toBe("0.25 (0.046–0.699)")
    expect(await library.getByTestId("run-errors").textContent()).toBe("0")
    expect(await library.getByTestId("run-cost").textContent()).toBe("unpriced")
    await page.screenshot({ path: screenshotPath("view-runs-folder") })

    await library.getByTestId("run-link").click()
    await page.getByTestId("run-config").waitFor()
    expect(await page.locator(".summary h2").textContent()).toContain("library")

    await page.getByTestId("tab-runs").click()
    await page.locator("[data-testid=run-row][data-name=baseline]").getByTestId("run-pick").check()
    await library.getByTestId("run-pick").check()
    await page.getByTestId("compare-picked").click()
    await page.getByTestId("comparison").waitFor()
    expect(page.url()).toContain(`a=${RUN.baseline}&b=${RUN.library}`)
    await page.screenshot({ path: screenshotPath("view-runs-compare"), fullPage: true })
  })

  it("compares unpriced runs as unpriced, names its test in words and the flipped tasks by id", async () => {
    const page = await openPage(`/compare?a=${RUN.baseline}&b=${RUN.library}`)
    await page.getByTestId("comparison").waitFor()
    const comparison = await page.getByTestId("comparison").textContent()
    expect(comparison).toContain("cost unpriced")
    expect(comparison).not.toContain("– → –")
    expect(comparison).toContain("paired t-test")
    await expect.poll(() => texts(page, "flip-seed")).toEqual(["div-0", "add-1", "mul-1"])
  })

  it("names a library run's rollouts by their task ids", async () => {
    const page = await openPage(`/rollouts?run=${RUN.library}`)
    await page.getByTestId("rollout-row").nth(3).waitFor()
    const firstCells = await page
      .getByTestId("rollout-row")
      .evaluateAll((rows) => rows.map((row) => row.querySelector("td")?.textContent))
    expect(firstCells).toEqual(TASK_IDS)
    await page.screenshot({ path: screenshotPath("view-library-table") })
    await page.locator("[data-testid=rollout-row][data-seed='1']").click()
    await page.locator("[data-testid=rollout-view][data-seed='1']").waitFor()
    expect(await page.getByTestId("rollout-title").textContent()).toBe("task add-2 · attempt 0")
  })

  it("calls a rollout the table calls wrong wrong on its page too", async () => {
    const page = await openPage(`/rollouts?run=${RUN.library}`)
    const row = page.locator("[data-testid=rollout-row][data-seed='1']")
    await row.waitFor()
    expect(await row.locator(".col-status").textContent()).toBe("wrong")
    await row.click()
    await page.locator("[data-testid=rollout-view][data-seed='1']").waitFor()
    expect(await page.getByTestId("rollout-status").textContent()).toBe("wrong")
  })

  it("names the summary's error bar in words", async () => {
    const page = await openPage(`/?run=${RUN.library}`)
    await page.getByTestId("score").waitFor()
    const score = await page.getByTestId("score").textContent()
    expect(score).toContain("standard error (CLT)")
    expect(score).not.toMatch(/\bclt\b/)
  })

  it("moves to the previous and next rollout by button and by key", async () => {
    const page = await openPage(`/rollouts?run=${RUN.library}`)
    await page.getByTestId("rollout-row").nth(3).waitFor()
    await page.locator("[data-testid=rollout-row][data-seed='0']").click()
    const at = (seed: number) => page.locator(`[data-testid=rollout-view][data-seed='${seed}']`).waitFor()
    await at(0)
    expect(await page.getByTestId("rollout-position").textContent()).toBe("1 of 4")
    await page.getByTestId("rollout-next").click()
    await at(1)
    await page.keyboard.press("j")
    await at(2)
    await page.keyboard.press("ArrowRight")
    await at(3)
    expect(await page.getByTestId("rollout-next").count()).toBe(0)
    await page.keyboard.press("k")
    await at(2)
    await page.keyboard.press("ArrowLeft")
    await at(1)
    await page.getByTestId("rollout-prev").click()
    await at(0)
    expect(await page.getByTestId("rollout-prev").count()).toBe(0)
  })

  it("shows an agent rollout's timeline: model turns, tool calls, commands with exit codes and output, notes", async () => {
    const page = await openPage(`/rollouts?run=${RUN.agent}`)
    await page.getByTestId("rollout-row").nth(1).waitFor()
    expect(await page.locator("[data-testid=rollout-row][data-seed='0'] .col-stop_reason").textContent()).toBe(
      "max turns",
    )
    await page.locator("[data-testid=rollout-row][data-seed='0']").click()
    await page.getByTestId("timeline").waitFor()
    const kinds = await page
      .getByTestId("timeline-entry")
      .evaluateAll((entries) => entries.map((entry) => entry.getAttribute("data-kind")))
    // The two intercepted model calls stand where they were made, among the stored steps.
    expect(kinds.filter((kind) => kind !== "call")).toEqual(["note", "model", "command", "tool", "command", "note"])
    expect(kinds.filter((kind) => kind === "call")).toHaveLength(2)
    expect(await texts(page, "step-exit-code")).toEqual(["exit 0", "exit 1"])
    expect(await page.getByTestId("step-tool-call").textContent()).toContain('bash({"command":"ls /work"})')
    expect(await page.getByTestId("step-stderr").textContent()).toContain("No such file or directory")
    expect(await page.getByTestId("step-stdout").textContent()).toContain("hello.txt")
    expect(await page.getByTestId("rollout-stop-reason").textContent()).toBe("max turns")
    expect(await page.getByTestId("rollout-turns").textContent()).toBe("2")
    expect(await page.getByTestId("rollout-messages").textContent()).toBe("5")
    await page.screenshot({ path: screenshotPath("view-agent-timeline"), fullPage: true })
  })
})

describe("proctor report --html of an agent run, in Chromium", () => {
  it("carries each rollout's timeline into the file", async () => {
    const file = join(tmp, "agent.html")
    const report = await runCli(["report", join(runs, "agent"), "--html", file])
    expect(report.code, report.stderr).toBe(0)
    const page = await openPage("/rollouts/0/0", pathToFileURL(file).href)
    await page.getByTestId("timeline").waitFor()
    expect(await texts(page, "step-exit-code")).toEqual(["exit 0", "exit 1"])
  })
})

describe("proctor view of an agent run still being written, in Chromium", () => {
  it("shows a rollout's timeline as its steps land, then its result", async () => {
    const run = await inScope(writeRun(join(tmp, "live"), [0], 1, { config: { app_id: "tasks" } }))
    run.step(testStep(0, 0, "note", { text: "sandbox started" }))
    const view = startCli(["view", run.dir])
    await waitFor("the viewer's URL", () => /proctor view: (http\S+)/.test(view.stdout()))
    const page = await openPage("/rollouts/0/0", /proctor view: (http\S+)/.exec(view.stdout())![1]!)
    await page.getByTestId("rollout-absent").getByTestId("timeline").waitFor()
    expect(await page.getByTestId("timeline-entry").count()).toBe(1)

    run.step(testStep(0, 1, "command", { command: "make test", exit_code: 2, stderr: "1 failed\n" }))
    await page.getByTestId("step-exit-code").waitFor()
    expect(await page.getByTestId("step-exit-code").textContent()).toBe("exit 2")
    await page.screenshot({ path: screenshotPath("view-live-timeline"), fullPage: true })

    await Effect.runPromise(run.add(result({ seed: 0, score: 1, stop_reason: "model_ended", turns: 1 })))
    await page.getByTestId("rollout-pane").waitFor()
    expect(await page.getByTestId("rollout-status").textContent()).toBe("passed")
    expect(await page.getByTestId("timeline-entry").count()).toBe(2)
    view.child.kill("SIGINT")
    expect((await view.done).code).toBe(0)
  })
})
