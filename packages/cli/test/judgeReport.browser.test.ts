/**
 * A judged run's report in real Chromium: the graders next to the score, the judge's spend apart from the policy's,
 * and how far the judge can be trusted, from `proctor report --html` opened from disk (no server, no network).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChromiumSession, launchChromium } from "@proctor/browser-test"
import { cleanEnv, ensureBuilt, killStrayClis, repoRoot, runCli, startExample } from "./fixtures/harness.js"

const ROWS = 40

let tmp: string
let chromium: ChromiumSession
let baseline: Awaited<ReturnType<typeof startExample>>

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-judge-report-"))
  baseline = await startExample("examples/baseline-model/dist/main.js", cleanEnv())
  const rows = readFileSync(join(repoRoot, "examples/datasets/sums.jsonl"), "utf8").split("\n").slice(0, ROWS)
  const dataset = join(tmp, "sums.jsonl")
  writeFileSync(
    dataset,
    rows.map((line, index) => JSON.stringify({ ...JSON.parse(line), human: index % 4 === 0 ? 1 : 5 })).join("\n"),
  )
  const runDir = join(tmp, "judged")
  const judge = `{ model = "baseline", inference_url = "${baseline.url}", human_labels = "human" }`
  const run = await runCli([
    ...["eval", "--dataset", dataset, "--prompt", "{{ item.question }}", "--model", "baseline"],
    ...["--inference-url", baseline.url, "--pricing", join(repoRoot, "examples/baseline-model/pricing.json")],
    ...["--grader", '{ type = "equals", name = "exact" }'],
    ...["--grader", '{ type = "rubric", rubric = "The answer is the correct sum." }', "--judge", judge],
    ...["--run-dir", runDir, "--json"],
  ])
  expect(run.code, run.stderr).toBe(0)
  const report = await runCli(["report", runDir, "--html", join(tmp, "judged.html")])
  expect(report.code, report.stderr).toBe(0)
  chromium = await launchChromium()
}, 240_000)

afterAll(async () => {
  killStrayClis()
  await chromium?.close()
  await baseline?.stop()
  rmSync(tmp, { recursive: true, force: true })
})

describe("a judged run's HTML report", () => {
  it("shows each grader's metric, the judge's spend and its agreement with the human labels", async () => {
    const page = await chromium.newPage()
    const errors: Array<string> = []
    page.on("pageerror", (error) => errors.push(error.message))
    await page.goto(`${pathToFileURL(join(tmp, "judged.html")).href}#/`)
    await page.getByTestId("graders").waitFor()
    expect(await page.getByTestId("grader-exact").textContent()).toContain("passed")
    expect(await page.getByTestId("grader-rubric").textContent()).toContain("passed")
    const spend = await page.getByTestId("judge-spend").textContent()
    expect(spend).toContain(`${ROWS} calls for ${ROWS} rollouts`)
    expect(spend).toContain("$")
    const trust = await page.getByTestId("judge-trust").textContent()
    expect(trust).toMatch(new RegExp(`judge rubric vs human labels \\(n=${ROWS}\\): alpha \\(ordinal\\) -?\\d`))
    expect(trust).toContain("95% CI")
    expect(errors).toEqual([])
  }, 60_000)
})
