/**
 * A grid run in real Chromium: 2 models × 2 prompts × 20 tasks run by the built CLI against the baseline model
 * (`baseline@N` slips one sum in N), then seen in `proctor view` and in `proctor report --html` (opened from disk).
 * The page must show what `proctor compare --json` computed and what each variant's journal holds: the ranking, the
 * pairs, every cell's score, pass and answer; its sort, its flips between two picked variants, and a cell's rollout.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChromiumSession, launchChromium, screenshotPath } from "@proctor/browser-test"
import type { EvalResult, GridManifest } from "@proctor/core"
import type { GridComparison } from "@proctor/report"
import { waitFor } from "@proctor/test-kit"
import type { Page } from "playwright-core"
import {
  cleanEnv,
  ensureBuilt,
  killStrayClis,
  nonEmptyLines,
  runCli,
  startCli,
  startExample,
} from "./fixtures/harness.js"

const TASKS = 20
const rows = Array.from({ length: TASKS }, (_, i) => {
  const [a, b] = [23 + ((i * 7919) % 911), 5 + ((i * 104729) % 877)]
  return { id: `t${String(i + 1).padStart(2, "0")}`, question: `What is ${a} + ${b}?`, answer: String(a + b) }
})

let tmp: string
let gridDir: string
let baseline: Awaited<ReturnType<typeof startExample>>
let chromium: ChromiumSession
let comparison: GridComparison
/** Each variant's run index in the viewer: its position in grid.json. */
let runOf: ReadonlyMap<string, number>
/** Each variant's results by task id. */
let resultsOf: ReadonlyMap<string, ReadonlyMap<string, EvalResult>>
const pages: Array<{ page: Page; errors: Array<string> }> = []

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-grid-view-"))
  gridDir = join(tmp, "grid")
  const dataset = join(tmp, "sums.jsonl")
  writeFileSync(dataset, rows.map((row) => JSON.stringify(row)).join("\n"))
  baseline = await startExample("examples/baseline-model/dist/main.js", cleanEnv())
  const run = await runCli(
    [
      "eval",
      "--dataset",
      dataset,
      ...["baseline@3", "baseline@6"].flatMap((model) => ["--model", model]),
      ...["{{ item.question }}", "Answer with the number only. {{ item.question }}"].flatMap((p) => ["--prompt", p]),
      "--grader",
      "equals",
      "--inference-url",
      baseline.url,
      "--run-dir",
      gridDir,
    ],
    { env: cleanEnv(), cwd: tmp },
  )
  expect(run.code, run.stderr).toBe(0)
  const compared = await runCli(["compare", gridDir, "--json"], { cwd: tmp })
  expect(compared.code, compared.stderr).toBe(0)
  comparison = JSON.parse(compared.stdout) as GridComparison
  const manifest = JSON.parse(readFileSync(join(gridDir, "grid.json"), "utf8")) as GridManifest
  runOf = new Map(manifest.variants.map((variant, index) => [variant.name, index]))
  resultsOf = new Map(
    manifest.variants.map(({ name }) => {
      const results = nonEmptyLines(join(gridDir, "variants", name, "results.jsonl")).map(
        (line) => JSON.parse(line) as EvalResult,
      )
      return [name, new Map(results.map((result) => [String(result.task_id), result]))]
    }),
  )
  chromium = await launchChromium()
}, 300_000)

afterAll(async () => {
  for (const { errors } of pages) expect(errors).toEqual([])
  await chromium?.close()
  killStrayClis()
  await baseline?.stop()
  rmSync(tmp, { recursive: true, force: true })
})

/**
 * A page that fails the test on any script error, with the paths it asked for; tall enough that the matrix's 20
 * rows are all rendered.
 */
const openPage = async (url: string, asked: Array<string> = []): Promise<Page> => {
  const page = await chromium.newPage()
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(error.message))
  page.on("request", (request) => asked.push(request.url().slice(url.length)))
  await page.setViewportSize({ width: 1400, height: 1800 })
  await page.goto(url)
  pages.push({ page, errors })
  return page
}

const texts = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluateAll((all) => all.map((element) => element.textContent?.trim() ?? ""))

/** The matrix as shown, row by row: its task, its flip mark and each cell's variant, outcome, score and answer. */
const matrix = (page: Page) =>
  page.getByTestId("grid-task-row").evaluateAll((all) =>
    all.map((row) => ({
      task: row.getAttribute("data-task") ?? "",
      flip: row.getAttribute("data-flip"),
      cells: [...row.querySelectorAll("[data-testid=grid-cell]")].map((cell) => ({
        variant: cell.getAttribute("data-variant"),
        outcome: cell.getAttribute("data-outcome"),
        score: cell.querySelector("[data-testid=grid-cell-score]")?.textContent,
        answer: cell.querySelector("[data-testid=grid-cell-answer]")?.textContent,
      })),
    })),
  )

const taskIds = rows.map((row) => row.id)
const ranked = () => comparison.variants.map((variant) => variant.label)
const scoreOf = (variant: string, task: string) => resultsOf.get(variant)!.get(task)!.score!
const answerOf = (variant: string, task: string) =>
  (resultsOf.get(variant)!.get(task)!.details as { answer: string }).answer

/** The pair with the most flips, and the task ids each side passed alone. */
const flippiest = () => {
  const pair = [...comparison.pairs].sort(
    (x, y) => y.flips.a_only.length + y.flips.b_only.length - (x.flips.a_only.length + x.flips.b_only.length),
  )[0]!
  const ids = (seeds: ReadonlyArray<number>) => seeds.map((seed) => rows[seed]!.id)
  return { a: pair.a, b: pair.b, aOnly: ids(pair.flips.a_only), bOnly: ids(pair.flips.b_only) }
}

/** What the viewer and the report file must both show, and do, of the grid. */
const checkGridPage = async (page: Page, screenshot: string) => {
  await page.getByTestId("grid-page").waitFor()
  expect(await texts(page, "grid-variant")).toEqual(ranked())
  expect(await texts(page, "grid-mean")).toEqual(comparison.variants.map((v) => String(Number(v.mean!.toFixed(3)))))
  expect(await texts(page, "grid-rank")).toEqual(comparison.variants.map((v) => String(v.rank)))
  expect(await page.getByTestId("grid-top-group").count()).toBe(comparison.variants.filter((v) => v.top_group).length)
  expect(await texts(page, "grid-pair-holm")).toEqual(
    comparison.pairs.map((pair) => String(Number(pair.p_holm!.toFixed(4)))),
  )
  expect(await texts(page, "grid-pair-significant")).toEqual(
    comparison.pairs.map((pair) => (pair.significant ? "yes" : "no")),
  )

  // Every cell as the variant's journal has it, columns best first, rows by task id.
  await expect.poll(() => page.getByTestId("grid-task-row").count()).toBe(TASKS)
  expect(await matrix(page)).toEqual(
    taskIds.map((task) => ({
      task,
      flip: null,
      cells: ranked().map((variant) => ({
        variant,
        outcome: scoreOf(variant, task) >= 1 ? "passed" : "wrong",
        score: String(scoreOf(variant, task)),
        answer: answerOf(variant, task),
      })),
    })),
  )
  await page.screenshot({ path: screenshotPath(`${screenshot}-matrix`), fullPage: true })

  // Sorted by the worst variant: its passes first (ties by seed), then the other way round, then by task again.
  const worst = ranked().at(-1)!
  const byWorst = (descending: boolean) =>
    [...taskIds].sort((x, y) => (descending ? -1 : 1) * (scoreOf(worst, x) - scoreOf(worst, y)) || x.localeCompare(y))
  const sortButton = page.locator(`[data-testid=grid-sort][data-variant="${worst}"]`)
  const shownTasks = async () => (await matrix(page)).map((row) => row.task)
  await sortButton.click()
  await expect.poll(shownTasks).toEqual(byWorst(true))
  await sortButton.click()
  await expect.poll(shownTasks).toEqual(byWorst(false))
  await page.getByTestId("grid-sort-task").click()
  await expect.poll(shownTasks).toEqual(taskIds)

  // The two variants picked the other way round from the pair's order: A passed alone what the pair's b did.
  const pair = flippiest()
  expect(pair.aOnly.length + pair.bOnly.length).toBeGreaterThan(0)
  await page.getByTestId("grid-flip-a").selectOption(String(runOf.get(pair.b)))
  await page.getByTestId("grid-flip-b").selectOption(String(runOf.get(pair.a)))
  const flipped = async () =>
    (await matrix(page)).filter((row) => row.flip !== null).map((row) => `${row.task}:${row.flip}`)
  const expected = [...pair.bOnly.map((task) => `${task}:a`), ...pair.aOnly.map((task) => `${task}:b`)].sort()
  await expect.poll(flipped).toEqual(expected)
  await page.getByTestId("grid-flips-only").check()
  await expect.poll(shownTasks).toEqual(expected.map((flip) => flip.split(":")[0]))
  expect(await page.getByTestId("grid-flip-count").textContent()).toContain(
    `${pair.bOnly.length} passed by A only, ${pair.aOnly.length} by B only`,
  )
  await page.screenshot({ path: screenshotPath(`${screenshot}-flips`), fullPage: true })

  // A cell opens its variant's rollout; back returns to the matrix as it was left.
  const task = expected[0]!.split(":")[0]!
  await page.locator(`[data-testid=grid-task-row][data-task="${task}"] [data-variant="${pair.b}"] a`).click()
  const seed = taskIds.indexOf(task)
  await page.locator(`[data-testid=rollout-view][data-seed="${seed}"]`).waitFor()
  expect(page.url()).toContain(`run=${runOf.get(pair.b)}`)
  expect(await page.getByTestId("rollout-title").textContent()).toBe(`task ${task} · attempt 0`)
  expect(await page.getByTestId("rollout-status").textContent()).toBe(scoreOf(pair.b, task) >= 1 ? "passed" : "wrong")
  expect(await page.getByTestId("rollout-pane").textContent()).toContain(answerOf(pair.b, task))
  await page.goBack()
  await page.getByTestId("grid-page").waitFor()
  await expect.poll(shownTasks).toEqual(expected.map((flip) => flip.split(":")[0]))
}

describe("a grid run, in Chromium", () => {
  it("proctor view RUN shows the ranking, the pairs and the task × variant matrix; sorts, flips, opens a cell", async () => {
    const view = startCli(["view", gridDir])
    await waitFor("the viewer's URL", () => /proctor view: (http\S+)/.test(view.stdout()))
    const asked: Array<string> = []
    const page = await openPage(/proctor view: (http\S+)/.exec(view.stdout())![1]!, asked)
    await page.getByTestId("grid-page").waitFor()
    // The page opens on the grid it preloaded: asked for once, not again by the script.
    expect(asked.filter((path) => path === "api/grid")).toHaveLength(1)
    await checkGridPage(page, "grid-view")
    view.child.kill("SIGINT")
    expect((await view.done).code).toBe(0)
  })

  it("proctor report RUN --html writes the same grid page into one file that opens from disk", async () => {
    const file = join(tmp, "grid.html")
    const report = await runCli(["report", gridDir, "--html", file])
    expect(report.code, report.stderr).toBe(0)
    expect(report.stdout).toContain(`: the grid of 4 variants, ${4 * TASKS} rollouts`)
    await checkGridPage(await openPage(pathToFileURL(file).href), "grid-report")
  })
})
