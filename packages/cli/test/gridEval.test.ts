import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { EvalResult } from "@proctor/core"
import type { GridComparison } from "@proctor/report"
import {
  cleanEnv,
  ensureBuilt,
  killStrayClis,
  nonEmptyLines,
  runCli,
  startCli,
  startExample,
} from "./fixtures/harness.js"

/**
 * The grid (issue 24): 3 models × 2 prompts × 300 tasks in one run against the baseline model, whose `NAME@N`
 * models slip one sum in N chosen by a hash of the model's name and the question. The test knows that rule, so it
 * knows every cell's score before the run, and checks the ranking, the flips and the Holm-corrected p-values and
 * intervals against its own computation (exact binomial, Holm by hand, t quantiles by numerical integration).
 */

const TASKS = 300
const MODELS = ["baseline@4", "baseline@8", "baseline@16"]
const PROMPTS = [
  "What is {{ item.a }} + {{ item.b }}? Answer with the number only.",
  "Please: what is {{ item.a }} + {{ item.b }}?",
]
const rows = Array.from({ length: TASKS }, (_, i) => ({
  id: `q${i}`,
  a: 17 + ((i * 7919) % 983),
  b: 3 + ((i * 104729) % 877),
}))

let tmp: string
let dataset: string
let baseline: Awaited<ReturnType<typeof startExample>>
const proctor = (args: ReadonlyArray<string>) => runCli(args, { env: cleanEnv(), cwd: tmp })

const gridArgs = (runDir: string, url: string, concurrency: number) => [
  "eval",
  "--dataset",
  dataset,
  ...MODELS.flatMap((m) => ["--model", m]),
  ...PROMPTS.flatMap((p) => ["--prompt", p]),
  "--grader",
  "equals",
  "--inference-url",
  url,
  "--run-dir",
  runDir,
  "--concurrency",
  String(concurrency),
]

// --- the reference: the baseline model's rule and the statistics, written again here ---

const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}
const render = (prompt: string, row: (typeof rows)[number]) =>
  prompt.replace("{{ item.a }}", String(row.a)).replace("{{ item.b }}", String(row.b))
const expectedScore = (model: string, prompt: string, row: (typeof rows)[number]) =>
  fnv1a(model + render(prompt, row)) % Number(model.split("@")[1]) === 0 ? 0 : 1
const variantName = (model: string, prompt: number) => `${model}+p${prompt + 1}`
const expected = new Map(
  MODELS.flatMap((model) =>
    PROMPTS.map((prompt, p) => [variantName(model, p), rows.map((row) => expectedScore(model, prompt, row))] as const),
  ),
)

const choose = (n: number, k: number) => {
  let c = 1
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i
  return c
}
const mcnemar = (b: number, c: number) => {
  const n = b + c
  if (n === 0) return 1
  let tail = 0
  for (let k = 0; k <= Math.min(b, c); k++) tail += choose(n, k) / 2 ** n
  return Math.min(1, 2 * tail)
}
/** The t density integrated by Simpson's rule, and its quantile by bisection: a second implementation. */
const tCdf = (t: number, df: number) => {
  const logC = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * Math.log(df * Math.PI)
  const pdf = (x: number) => Math.exp(logC - ((df + 1) / 2) * Math.log(1 + (x * x) / df))
  const steps = 20_000
  const h = t / steps
  let sum = pdf(0) + pdf(t)
  for (let i = 1; i < steps; i++) sum += (i % 2 === 1 ? 4 : 2) * pdf(i * h)
  return 0.5 + (sum * h) / 3
}
const lgamma = (x: number): number => {
  // Lanczos (g = 7, n = 9)
  const g = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ]
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x)
  const z = x - 1
  let a = g[0]!
  const t = z + 7.5
  for (let i = 1; i < 9; i++) a += g[i]! / (z + i)
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a)
}
const tQuantile = (p: number, df: number) => {
  let lo = 0
  let hi = 50
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2
    if (tCdf(mid, df) < p) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}

interface ReferencePair {
  readonly a: string
  readonly b: string
  readonly diff: number
  readonly p: number
  holm: number
  level: number
  readonly se: number
  readonly aOnly: ReadonlyArray<number>
  readonly bOnly: ReadonlyArray<number>
}

const reference = () => {
  const mean = (xs: ReadonlyArray<number>) => xs.reduce((s, x) => s + x, 0) / xs.length
  const ranked = [...expected.keys()].sort((x, y) => mean(expected.get(y)!) - mean(expected.get(x)!))
  const pairs: Array<ReferencePair> = []
  for (let i = 0; i < ranked.length; i++)
    for (let j = i + 1; j < ranked.length; j++) {
      const xa = expected.get(ranked[i]!)!
      const xb = expected.get(ranked[j]!)!
      const d = xa.map((x, s) => x - xb[s]!)
      const dm = mean(d)
      const sd = Math.sqrt(d.reduce((s, x) => s + (x - dm) ** 2, 0) / (d.length - 1))
      const aOnly = d.flatMap((x, s) => (x > 0 ? [s] : []))
      const bOnly = d.flatMap((x, s) => (x < 0 ? [s] : []))
      pairs.push({
        a: ranked[i]!,
        b: ranked[j]!,
        diff: dm,
        p: mcnemar(aOnly.length, bOnly.length),
        holm: 0,
        level: 0,
        se: sd / Math.sqrt(d.length),
        aOnly,
        bOnly,
      })
    }
  // Holm: sorted p, running max of (m − k) · p (k from 0), levels α/(m − k) held from the first acceptance.
  const m = pairs.length
  const sorted = [...pairs].sort((x, y) => x.p - y.p)
  let running = 0
  let stopLevel: number | null = null
  sorted.forEach((pair, k) => {
    running = Math.max(running, Math.min(1, (m - k) * pair.p))
    pair.holm = running
    if (stopLevel === null && !(pair.p < 0.05 / (m - k))) stopLevel = 0.05 / (m - k)
    pair.level = stopLevel ?? 0.05 / (m - k)
  })
  return { ranked, pairs }
}

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-grid-"))
  dataset = join(tmp, "sums.jsonl")
  writeFileSync(dataset, rows.map((row) => JSON.stringify({ ...row, answer: String(row.a + row.b) })).join("\n"))
  baseline = await startExample("examples/baseline-model/dist/main.js", cleanEnv())
}, 120_000)

afterAll(async () => {
  killStrayClis()
  await baseline?.stop()
})

const results = (dir: string): Array<EvalResult> =>
  nonEmptyLines(join(dir, "results.jsonl")).map((line) => JSON.parse(line) as EvalResult)

describe("a grid run: 3 models × 2 prompts × 300 tasks", () => {
  const runDir = () => join(tmp, "grid")
  let comparison: GridComparison

  beforeAll(async () => {
    const run = await proctor([...gridArgs(runDir(), baseline.url, 16), "--json"])
    expect(run.code, run.stderr).toBe(0)
    comparison = (JSON.parse(run.stdout) as { comparison: GridComparison }).comparison
  }, 300_000)

  it("runs every variant on the same 300 tasks, each in its own run directory, each cell as the model's rule says", () => {
    const names = readdirSync(join(runDir(), "variants")).sort()
    expect(names).toEqual([...expected.keys()].sort())
    for (const [name, scores] of expected) {
      const stored = results(join(runDir(), "variants", name)).sort((x, y) => x.seed - y.seed)
      expect(stored.map((r) => r.seed)).toEqual(rows.map((_, i) => i))
      expect(stored.map((r) => r.score)).toEqual(scores)
      const config = JSON.parse(readFileSync(join(runDir(), "variants", name, "config.json"), "utf8")).config
      expect(config.model).toBe(name.split("+")[0])
      expect(config.prompt).toBe(PROMPTS[Number(name.slice(-1)) - 1])
    }
  })

  it("ranks the variants, flags the flips and corrects for 15 comparisons as the reference does", () => {
    const ref = reference()
    expect(comparison.tasks).toBe(TASKS)
    expect(comparison.variants.map((v) => v.label)).toEqual(ref.ranked)
    expect(comparison.pairs).toHaveLength(15)
    for (const [i, pair] of comparison.pairs.entries()) {
      const want = ref.pairs[i]!
      expect([pair.a, pair.b]).toEqual([want.a, want.b])
      expect(pair.test).toBe("mcnemar_exact")
      expect(pair.diff).toBeCloseTo(want.diff, 12)
      expect(pair.p_value).toBeCloseTo(want.p, 10)
      expect(pair.p_holm).toBeCloseTo(want.holm, 10)
      expect(pair.significant).toBe(want.holm < 0.05)
      expect(pair.ci_level).toBeCloseTo(1 - want.level, 12)
      const half = tQuantile(1 - want.level / 2, TASKS - 1) * want.se
      expect(pair.ci![0]).toBeCloseTo(want.diff - half, 5)
      expect(pair.ci![1]).toBeCloseTo(want.diff + half, 5)
      expect(pair.flips.a_only).toEqual(want.aOnly)
      expect(pair.flips.b_only).toEqual(want.bOnly)
    }
    // The rule makes the models differ (1 in 4, 8, 16 wrong): some pairs must be significant, some not.
    expect(comparison.pairs.some((p) => p.significant)).toBe(true)
    expect(comparison.pairs.some((p) => !p.significant)).toBe(true)
  })

  it("proctor compare RUN prints the same ranking as a table, --markdown and --json", async () => {
    const json = await proctor(["compare", runDir(), "--json"])
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual(comparison)
    const text = await proctor(["compare", runDir()])
    expect(text.stdout).toContain("Compare 6 variants over 300 tasks scored in every one")
    expect(text.stdout).toContain("Holm-corrected")
    const markdown = await proctor(["compare", runDir(), "--markdown"])
    expect(markdown.stdout).toMatch(/^### proctor compare — 6 variants/)
    expect(markdown.stdout).toContain(`| 1 | ${comparison.variants[0]!.label}`)
  })

  it("proctor compare A B C ranks separate runs; A B keeps the two-run comparison", async () => {
    const dirs = ["baseline@4+p1", "baseline@8+p1", "baseline@16+p1"].map((n) => join(runDir(), "variants", n))
    const three = await proctor(["compare", ...dirs, "--json"])
    expect(three.code, three.stderr).toBe(0)
    const ranked = JSON.parse(three.stdout) as GridComparison
    const means = ranked.variants.map((v) => v.mean!)
    expect(means).toEqual([...means].sort((x, y) => y - x))
    expect(new Set(ranked.variants.map((v) => v.label))).toEqual(new Set(dirs))
    expect(ranked.pairs).toHaveLength(3)
    const two = await proctor(["compare", dirs[0]!, dirs[2]!])
    expect(two.code, two.stderr).toBe(0)
    expect(two.stdout).toMatch(/^Compare A: /)
    const gate = await proctor(["compare", ...dirs, "--fail-if-worse"])
    expect(gate.code).toBe(2)
    expect(gate.stderr).toContain("--fail-if-worse gates one candidate against one baseline")
  })
})

describe("a grid run killed with SIGKILL", () => {
  it("resumes every variant's journal to exactly 300 results, the same as an unbroken run", async () => {
    const slow = await startExample("examples/baseline-model/dist/main.js", cleanEnv({ BASELINE_LATENCY_MS: "15" }))
    try {
      const runDir = join(tmp, "killed")
      const cli = startCli(gridArgs(runDir, slow.url, 8), { env: cleanEnv(), cwd: tmp })
      const journaled = () => {
        let n = 0
        for (const name of expected.keys()) {
          try {
            n += nonEmptyLines(join(runDir, "variants", name, "results.jsonl")).length
          } catch {}
        }
        return n
      }
      while (journaled() < 200 && cli.child.exitCode === null) await new Promise((r) => setTimeout(r, 20))
      cli.child.kill("SIGKILL")
      const killed = await cli.done
      expect(killed.signal, killed.stderr).toBe("SIGKILL")
      expect(journaled()).toBeLessThan(6 * TASKS)
      const resumed = await proctor(["eval", "--resume", runDir, "--json"])
      expect(resumed.code, resumed.stderr).toBe(0)
      for (const [name, scores] of expected) {
        const stored = results(join(runDir, "variants", name))
        const keys = new Set(stored.map((r) => r.seed))
        expect(keys.size).toBe(TASKS)
        const last = new Map(stored.map((r) => [r.seed, r.score]))
        expect(rows.map((_, i) => last.get(i))).toEqual(scores)
      }
    } finally {
      await slow.stop()
    }
  }, 300_000)
})

describe("a promptfoo config with several providers", () => {
  const config = (providers: ReadonlyArray<string>) => {
    const path = join(tmp, `providers-${providers.length}-${Math.random().toString(36).slice(2)}.yaml`)
    writeFileSync(
      path,
      [
        'prompts: ["What is {{a}} + {{b}}? Answer with the number only."]',
        "providers:",
        ...providers.map((provider) => `  - ${provider}`),
        "defaultTest:",
        "  assert: [{ type: equals, value: '{{sum}}' }]",
        "tests:",
        ...rows.slice(0, 40).map((row) => `  - vars: { a: ${row.a}, b: ${row.b}, sum: "${row.a + row.b}" }`),
      ].join("\n"),
    )
    return path
  }

  it("is a grid run, a variant per provider on the same tests, ranked like any grid", async () => {
    const runDir = join(tmp, "promptfoo-grid")
    const run = await proctor([
      ...["eval", "--from-promptfoo", config(["openai:chat:baseline@4", "openai:chat:baseline@16"])],
      ...["--inference-url", baseline.url, "--run-dir", runDir, "--json"],
    ])
    expect(run.code, run.stderr).toBe(0)
    const { comparison } = JSON.parse(run.stdout) as { comparison: GridComparison }
    expect(comparison.variants.map((variant) => variant.label).sort()).toEqual(["baseline@16", "baseline@4"])
    expect(readdirSync(join(runDir, "variants")).sort()).toEqual(["baseline@16", "baseline@4"])
    for (const name of ["baseline@4", "baseline@16"]) {
      const stored = results(join(runDir, "variants", name))
      expect(stored).toHaveLength(40)
      // Each variant asked its own model: the baseline slips one sum in N, so @4 errs on more rows than @16.
      expect(stored.every((result) => result.grades?.equals !== undefined)).toBe(true)
    }
    const wrong = (name: string) =>
      results(join(runDir, "variants", name)).filter((result) => result.grades?.equals?.passed === false).length
    expect(wrong("baseline@4")).toBeGreaterThan(wrong("baseline@16"))
  }, 120_000)

  it("a provider's own apiBaseUrl is its variant's endpoint, checked before anything runs", async () => {
    const run = await proctor([
      ...["eval", "--from-promptfoo"],
      config([
        "openai:chat:baseline@4",
        "{ id: openai:chat:baseline@8, config: { apiBaseUrl: 'http://127.0.0.1:9/v1' } }",
      ]),
      ...["--inference-url", baseline.url, "--run-dir", join(tmp, "promptfoo-grid-unreachable")],
    ])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("the model endpoint http://127.0.0.1:9/v1 cannot be reached")
  }, 60_000)
})
