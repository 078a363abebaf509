/**
 * `proctor report --html` in real Chromium: two real evals (the built CLI against the math example task app and
 * the baseline model), written as report files and opened from disk (file://, no server, no network).
 *
 * Faults are injected at the task app's HTTP boundary so the runs hold every kind of outcome: seeds answered
 * HTTP 500 (retried once, then errored: http_5xx), one answered 400 (http_4xx, never retried), and seeds whose
 * grade is turned to 0 (wrong answers) — different ones in run A and run B, so the runs flip both ways.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChromiumSession, launchChromium, screenshotPath } from "@proctor/browser-test"
import type { EvalResult } from "@proctor/core"
import type { TaskApp } from "@proctor/task-app"
import type { EmbeddedHead } from "@proctor/viewer"
import type { Page } from "playwright-core"
import { cleanEnv, ensureBuilt, killStrayClis, repoRoot, runCli } from "./fixtures/harness.js"

const TASK_KEY = "sk-report-html-task-key"
const SEEDS = Array.from({ length: 24 }, (_, seed) => seed)
/** Answered 500 in run A: retried, then errored. */
const SERVER_ERROR_SEEDS = new Set([5, 11])
/** Answered 400 in run A: errored at once. */
const CLIENT_ERROR_SEED = 17
/** Graded 0 whatever the answer, per run. */
const WRONG_SEEDS: Record<"A" | "B", ReadonlySet<number>> = { A: new Set([2, 8]), B: new Set([3, 9, 20]) }

interface MathModule {
  readonly createMathApp: (options: { apiKey: string; auth: "key" | "none" }) => TaskApp
  readonly problemForSeed: (seed: number) => { readonly question: string }
}

interface BaselineModule {
  readonly createBaselineModel: (options?: { latencyMs?: number }) => {
    readonly listen: () => Promise<{ readonly url: string; readonly close: () => Promise<void> }>
  }
}

let tmp: string
let math: MathModule
let chromium: ChromiumSession
let phase: "A" | "B" = "A"
const cleanups: Array<() => Promise<void>> = []
const runDir = (run: "A" | "B") => join(tmp, `run-${run}`)
const reportFile = (name: string) => join(tmp, `${name}.html`)

/** The grade fields of a rollout response (metrics and its reward_info alias), set to a wrong answer's. */
const gradeWrong = (body: Record<string, unknown>) => {
  for (const key of ["metrics", "reward_info"]) {
    const metrics = body[key] as Record<string, unknown> | undefined
    if (metrics === undefined) continue
    for (const field of ["outcome_score", "outcome_reward", "reward_mean", "mean_return"]) {
      if (typeof metrics[field] === "number") metrics[field] = 0
    }
    metrics.episode_returns = [0]
    metrics.outcome_objectives = { reward: 0 }
  }
}

const seedOf = (body: unknown): number | undefined => (body as { env?: { seed?: number } } | undefined)?.env?.seed

const startFaultyMathApp = async (): Promise<string> => {
  const app = math.createMathApp({ apiKey: TASK_KEY, auth: "key" })
  app.app.addHook("preHandler", async (request, reply) => {
    if (phase !== "A" || !request.url.startsWith("/rollout")) return
    const seed = seedOf(request.body)
    if (seed !== undefined && SERVER_ERROR_SEEDS.has(seed)) {
      await reply.code(500).send({ detail: "injected: the task app's database is down" })
    } else if (seed === CLIENT_ERROR_SEED) {
      await reply.code(400).send({ detail: "injected: this seed's task is malformed" })
    }
  })
  app.app.addHook("onSend", async (request, reply, payload) => {
    const seed = seedOf(request.body)
    if (!request.url.startsWith("/rollout") || reply.statusCode !== 200 || seed === undefined) return payload
    if (!WRONG_SEEDS[phase].has(seed) || typeof payload !== "string") return payload
    const body = JSON.parse(payload) as Record<string, unknown>
    gradeWrong(body)
    return JSON.stringify(body)
  })
  const running = await app.listen({ port: 0, host: "127.0.0.1" })
  cleanups.push(running.close)
  return running.url
}

const runEval = async (run: "A" | "B", appUrl: string, modelUrl: string) => {
  phase = run
  const result = await runCli(
    [
      "eval",
      "math",
      ...["--url", appUrl, "--seeds", `0-${SEEDS.length - 1}`, "--model", "baseline"],
      ...["--inference-url", modelUrl, "--concurrency", "8", "--max-retries", "1", "--run-dir", runDir(run)],
    ],
    { env: cleanEnv({ ENVIRONMENT_API_KEY: TASK_KEY }) },
  )
  // Run A is not valid (more than 5% errored): exit 1, its results kept all the same.
  expect(result.code, result.stderr).toBe(run === "A" ? 1 : 0)
}

const resultsOf = (run: "A" | "B"): Array<EvalResult> =>
  readFileSync(join(runDir(run), "results.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as EvalResult)

const passedSeeds = (run: "A" | "B") =>
  new Set(resultsOf(run).flatMap((r) => (r.status === "ok" && r.score !== null && r.score >= 1 ? [r.seed] : [])))
const erroredSeeds = (run: "A" | "B") => new Set(resultsOf(run).flatMap((r) => (r.status === "error" ? [r.seed] : [])))

const report = async (name: string, dirs: ReadonlyArray<string>, extra: ReadonlyArray<string> = []) => {
  const result = await runCli(["report", ...dirs, "--html", reportFile(name), ...extra])
  expect(result.code, result.stderr).toBe(0)
  expect(result.stdout).toContain(`wrote ${reportFile(name)}`)
}

/** A report file's data tag, and the keys of the transcripts it embeds (each in a tag of its own). */
const embeddedData = (name: string): { readonly head: EmbeddedHead; readonly transcripts: Array<string> } => {
  const html = readFileSync(reportFile(name), "utf8")
  const match = /<script id="proctor-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)
  const transcripts = Array.from(html.matchAll(/<script id="proctor-rollout:([^"]+)"/g), (m) => m[1]!)
  return { head: JSON.parse(match![1]!) as EmbeddedHead, transcripts }
}

/** A page that fails the test on any script error: a broken view must not pass as an empty one. */
const openPage = async (url: string): Promise<Page> => {
  const page = await chromium.newPage()
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(error.message))
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text())
  })
  cleanups.push(async () => expect(errors).toEqual([]))
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.goto(url)
  return page
}

const fileUrl = (name: string, fragment: string) => `${pathToFileURL(reportFile(name)).href}#${fragment}`

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-report-html-"))
  const load = <A>(path: string) => import(pathToFileURL(join(repoRoot, path)).href) as Promise<A>
  math = await load<MathModule>("examples/math/dist/index.js")
  const { createBaselineModel } = await load<BaselineModule>("examples/baseline-model/dist/index.js")
  const model = await createBaselineModel({ latencyMs: 0 }).listen()
  cleanups.push(model.close)
  const appUrl = await startFaultyMathApp()
  await runEval("A", appUrl, model.url)
  await runEval("B", appUrl, model.url)
  await report("run-a", [runDir("A")])
  await report("a-vs-b", [runDir("A"), runDir("B")])
  // 3 KB of transcripts: room for a few failures' and nothing else.
  await report("small", [runDir("A")], ["--max-transcripts-mb", String(3000 / 1024 / 1024)])
  chromium = await launchChromium()
}, 240_000)

afterAll(async () => {
  killStrayClis()
  await chromium?.close()
  for (const cleanup of cleanups.reverse()) await cleanup()
  rmSync(tmp, { recursive: true, force: true })
})

describe("proctor report --html, opened from disk in Chromium", () => {
  it("shows the summary: score, errors by kind apart from wrong answers", async () => {
    const page = await openPage(fileUrl("run-a", "/"))
    await page.getByTestId("validity").waitFor()
    expect(await page.getByTestId("validity").textContent()).toContain("not valid")
    const kinds = await page.getByTestId("errors-by-kind").textContent()
    expect(kinds).toContain("http_5xx")
    expect(kinds).toContain("http_4xx")
    expect(await page.getByTestId("errors").textContent()).toContain(String(erroredSeeds("A").size))
    const wrong = resultsOf("A").filter((r) => r.status === "ok" && (r.score ?? 0) < 1).length
    expect(await page.getByTestId("wrong-answers").textContent()).toContain(String(wrong))
    await page.getByTestId("dist-latency").locator("canvas").waitFor()
    // The placeholder shown while a big file is parsed is gone once the app is up.
    expect(await page.getByText("Loading…", { exact: true }).count()).toBe(0)
    await page.screenshot({ path: screenshotPath("report-summary"), fullPage: true })
  })

  it("filters the table to errors, and opens a rollout by click with its model messages", async () => {
    const page = await openPage(fileUrl("run-a", "/rollouts"))
    await page.getByTestId("rollout-row").first().waitFor()
    expect(await page.getByTestId("rollout-count").getAttribute("data-count")).toBe(String(SEEDS.length))
    await page.getByTestId("filter-status").selectOption("error")
    const errored = [...erroredSeeds("A")].sort((a, b) => a - b)
    await expect.poll(() => page.getByTestId("rollout-row").count()).toBe(errored.length)
    const rows = page.getByTestId("rollout-row")
    expect(await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-status")))).toEqual(
      errored.map(() => "error"),
    )
    expect(await rows.evaluateAll((all) => all.map((row) => Number(row.getAttribute("data-seed"))))).toEqual(errored)
    await page.screenshot({ path: screenshotPath("report-table-errors") })

    await page.getByTestId("filter-status").selectOption("all")
    await page.locator("[data-testid=rollout-row][data-seed='4']").click()
    await page.locator("[data-testid=rollout-view][data-seed='4'][data-attempt='0']").waitFor()
    await expect
      .poll(() =>
        page
          .getByTestId("model-message")
          .filter({ hasText: math.problemForSeed(4).question })
          .count(),
      )
      .toBeGreaterThan(0)
    expect(await page.getByTestId("model-call").count()).toBeGreaterThan(0)
    await page.screenshot({ path: screenshotPath("report-rollout"), fullPage: true })
  })

  it("opens a rollout by deep link, and shows an errored one's error", async () => {
    const page = await openPage(fileUrl("run-a", "/rollouts/6/0"))
    await page.locator("[data-testid=rollout-view][data-seed='6']").waitFor()
    await page
      .getByTestId("model-message")
      .filter({ hasText: math.problemForSeed(6).question })
      .first()
      .waitFor()

    await page.goto(fileUrl("run-a", `/rollouts/${[...SERVER_ERROR_SEEDS][0]}/0`))
    await page.getByTestId("rollout-error").waitFor()
    expect(await page.getByTestId("rollout-error").textContent()).toContain("http_5xx")
    expect(await page.getByTestId("rollout-status").textContent()).toContain("error")
  })

  it("compares two runs: the seeds that flipped each way, and one seed's transcripts side by side", async () => {
    const passedA = passedSeeds("A")
    const passedB = passedSeeds("B")
    const scoredIn = (run: "A" | "B") => new Set(resultsOf(run).flatMap((r) => (r.status === "ok" ? [r.seed] : [])))
    const paired = SEEDS.filter((seed) => scoredIn("A").has(seed) && scoredIn("B").has(seed))
    const aOnly = paired.filter((seed) => passedA.has(seed) && !passedB.has(seed))
    const bOnly = paired.filter((seed) => passedB.has(seed) && !passedA.has(seed))
    expect(aOnly.length).toBeGreaterThan(0)
    expect(bOnly.length).toBeGreaterThan(0)

    const page = await openPage(fileUrl("a-vs-b", "/compare"))
    await page.getByTestId("flips-a-only").waitFor()
    const seedsIn = (list: string) =>
      page
        .getByTestId(list)
        .getByTestId("flip-seed")
        .evaluateAll((links) => links.map((link) => Number(link.textContent)))
    expect(await seedsIn("flips-a-only")).toEqual(aOnly)
    expect(await seedsIn("flips-b-only")).toEqual(bOnly)

    await page.getByTestId("flips-b-only").getByTestId("flip-seed").first().click()
    const question = math.problemForSeed(bOnly[0]!).question
    for (const side of ["compare-side-0", "compare-side-1"]) {
      await page.getByTestId(side).getByTestId("model-message").filter({ hasText: question }).first().waitFor()
    }
    await page.screenshot({ path: screenshotPath("report-compare"), fullPage: true })
  })

  it("above its size budget keeps every row, failures' transcripts first, and says so", async () => {
    const { head: data, transcripts: embedded } = embeddedData("small")
    expect(data.rows[0]).toHaveLength(SEEDS.length)
    expect(data.omitted).toBeGreaterThan(0)
    expect(embedded.length).toBeGreaterThan(0)
    expect(embedded.length + data.omitted).toBe(SEEDS.length)
    const rowOf = (key: string) => data.rows[0]!.find((row) => `0/${row.seed}/${row.attempt}` === key)!
    // Errors before anything else: every embedded transcript is an error's while some error's is left out.
    const errorsEmbedded = embedded.filter((key) => rowOf(key).status === "error").length
    if (errorsEmbedded < erroredSeeds("A").size) expect(errorsEmbedded).toBe(embedded.length)

    const page = await openPage(fileUrl("small", "/rollouts/0/0"))
    expect(await page.getByTestId("omitted-notice").textContent()).toContain(`${data.omitted} rollouts' transcripts`)
    await page.getByTestId("rollout-absent").waitFor()
  })
})
