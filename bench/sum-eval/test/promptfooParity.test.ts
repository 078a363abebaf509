import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { homedir, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { createBaselineModel } from "@proctor/example-baseline-model"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { findPromptfoo, type Promptfoo, promptfooEnv, writePromptfooConfig } from "../src/promptfoo.js"

/**
 * `proctor eval --from-promptfoo` against promptfoo 0.123.1 itself: the same configs, the same model (the baseline
 * model on loopback), the same pass/fail for every test × prompt. promptfoo is the copy scripts/test-setup.sh
 * installs (`npm i promptfoo@0.123.1 node@22` in ~/.cache/proctor/promptfoo-0.123.1, or PROMPTFOO_DIR): without
 * it the test is skipped, except in CI, where its absence fails.
 */
const repo = fileURLToPath(new URL("../../../", import.meta.url))
const cli = join(repo, "packages/cli/dist/bin.cjs")
const examples = join(repo, "examples/imports/promptfoo")
const promptfooDir = process.env.PROMPTFOO_DIR ?? join(homedir(), ".cache/proctor/promptfoo-0.123.1")
const available = existsSync(join(promptfooDir, "node_modules/promptfoo/package.json"))
const run = promisify(execFile)

interface Verdicts {
  readonly [cell: string]: boolean
}

/** promptfoo's verdict per `test/prompt` cell, from its `--output` JSON. */
const promptfooVerdicts = async (pf: Promptfoo, config: string, work: string, env: NodeJS.ProcessEnv) => {
  const output = join(work, "promptfoo.json")
  await run(pf.node, [pf.entry, "eval", "-c", config, "--no-cache", "--no-table", "--no-progress-bar", "-o", output], {
    env: { ...promptfooEnv(join(work, "promptfoo-home")), ...env },
    maxBuffer: 64 * 1024 * 1024,
  })
  const { results } = JSON.parse(readFileSync(output, "utf8")) as {
    results: { results: ReadonlyArray<{ testIdx: number; promptIdx: number; success: boolean; error?: string }> }
  }
  return Object.fromEntries(results.results.map((row) => [`${row.testIdx}/${row.promptIdx}`, row.success]))
}

/** proctor's verdict per `test/prompt` cell: its `score` grade's `passed`, seed = test × prompts + prompt. */
const proctorVerdicts = async (config: string, prompts: number, work: string, env: NodeJS.ProcessEnv) => {
  const runDir = join(work, "proctor-run")
  await run(process.execPath, [cli, "eval", "--from-promptfoo", config, "--run-dir", runDir, "--json"], {
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  })
  const rows = readFileSync(join(runDir, "results.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { seed: number; grades?: { score?: { passed: boolean } } })
  return Object.fromEntries(
    rows.map((row) => [`${Math.floor(row.seed / prompts)}/${row.seed % prompts}`, row.grades?.score?.passed ?? null]),
  ) as Verdicts
}

describe.skipIf(!available && process.env.CI === undefined)("--from-promptfoo against promptfoo 0.123.1", () => {
  let model: Awaited<ReturnType<ReturnType<typeof createBaselineModel>["listen"]>>
  let work: string
  let pf: Promptfoo
  beforeAll(async () => {
    pf = findPromptfoo(promptfooDir)
    expect(pf.version).toBe("0.123.1")
    model = await createBaselineModel({ latencyMs: 0 }).listen({ port: 0 })
    work = mkdtempSync(join(tmpdir(), "proctor-promptfoo-parity-"))
  })
  afterAll(async () => {
    await model?.close()
    if (work !== undefined) rmSync(work, { recursive: true, force: true })
  })

  const env = () => ({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "unused" })

  const same = async (config: string, prompts: number, name: string) => {
    const dir = mkdtempSync(join(work, `${name}-`))
    const [theirs, ours] = await Promise.all([
      promptfooVerdicts(pf, config, dir, env()),
      proctorVerdicts(config, prompts, dir, env()),
    ])
    expect(Object.keys(ours).length).toBeGreaterThan(0)
    expect(ours).toEqual(theirs)
    // The configs are written so that some cells fail: agreement on all-pass would show little.
    expect(Object.values(theirs)).toContain(false)
    expect(Object.values(theirs)).toContain(true)
  }

  it("the sum-eval bench's config (equals)", async () => {
    const config = join(work, "sum.json")
    writePromptfooConfig(config, 60, model.url, "baseline")
    await same(config, 1, "sum")
  }, 120_000)

  it("vars from CSV, defaultTest, __expected forms (equals, contains, not-equals, starts-with, regex, contains-any, icontains, not-contains)", async () => {
    await same(join(examples, "sums-csv.yaml"), 1, "csv")
  }, 120_000)

  it("two prompts; icontains, is-json and not-, starts-with, contains-all, contains-any, equals, regex; weights, a metric, a threshold", async () => {
    await same(join(examples, "replies.yaml"), 2, "replies")
  }, 120_000)

  it("python assertions (an expression, a function body, a file's functions, not-, a threshold), assert-sets, vars from files", async () => {
    await same(join(examples, "scripted.yaml"), 1, "scripted")
  }, 120_000)
})
