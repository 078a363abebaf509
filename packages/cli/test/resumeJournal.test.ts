import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  type CliResult,
  captured,
  cleanEnv,
  cliBin,
  ensureBuilt,
  killStrayClis,
  nonEmptyLines,
  runCli,
  startZeroTaskApp,
  type TestTaskApp,
} from "./fixtures/harness.js"

/** The recording app calls no model: no endpoint to trace. */
const NO_MODEL = "--no-intercept"

const KEY = "sk-test-secret-123"
const STACK_FRAME = /^\s+at\s/m
const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY })

let tmp: string
let app: TestTaskApp

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-resume-"))
  // Scores that differ by seed, so a result that changes moves the mean.
  app = await startZeroTaskApp({ apiKey: KEY, score: (seed) => ((seed * 37) % 10) / 10 })
}, 300_000)

afterAll(async () => {
  killStrayClis()
  await app.close()
  rmSync(tmp, { recursive: true, force: true })
})

interface Row {
  readonly seed: number
  readonly attempt: number
  readonly score: number | null
}

/** A finished run of seeds 0…9 (one attempt each); its journal's lines are what a test then corrupts. */
const finishedRun = async (name: string, extraArgs: ReadonlyArray<string> = []) => {
  const runDir = join(tmp, name)
  app.setPhase(`${name}:first`)
  const first = await runCli(
    ["eval", "--url", app.url, "--seeds", "0-9", "--run-dir", runDir, NO_MODEL, ...extraArgs],
    { env },
  )
  expect(first.code, first.stderr).toBe(0)
  const journal = join(runDir, "results.jsonl")
  return { runDir, journal, lines: nonEmptyLines(journal) }
}

const resume = (name: string, runDir: string, args: ReadonlyArray<string> = []) => {
  app.setPhase(`${name}:resume`)
  return runCli(["eval", "--resume", runDir, NO_MODEL, ...args], { env })
}

const rolloutsIn = (phase: string) => app.started.filter((s) => s.phase === phase).map((s) => s.seed)

const writeLines = (file: string, lines: ReadonlyArray<string>) => writeFileSync(file, `${lines.join("\n")}\n`)

const withScore = (line: string, score: number) => JSON.stringify({ ...JSON.parse(line), score })

const expectCleanRefusal = (result: CliResult) => {
  expect(result.code, result.stderr).toBe(2)
  expect(result.stderr).not.toMatch(STACK_FRAME)
  expect(result.stdout).not.toMatch(STACK_FRAME)
}

describe("resume checks the journal against the run's plan", () => {
  it("a garbage line or a torn line in the middle stops the resume with exit 2, naming it and offering --repair", async () => {
    const { runDir, journal, lines } = await finishedRun("garbage")
    const torn = lines[6]!.slice(0, 25)
    const corrupted = [...lines.slice(0, 4), "garbage{", ...lines.slice(4, 8), torn, ...lines.slice(8)]
    writeLines(journal, corrupted)
    const before = readFileSync(journal, "utf8")

    const result = await resume("garbage", runDir)
    expectCleanRefusal(result)
    expect(result.stderr).toContain(
      `${journal} line 5 is not JSON; 1 more line is not a result of the run's plan (line 10)`,
    )
    expect(result.stderr).toContain(`eval --resume ${runDir} --repair`)
    expect(readFileSync(journal, "utf8")).toBe(before)
    expect(rolloutsIn("garbage:resume")).toEqual([])
  })

  it("a second, different result for a key is refused; an exact copy of a line changes nothing and resumes", async () => {
    const { runDir, journal, lines } = await finishedRun("conflict")
    const mean = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8")).metrics.mean_score
    const seedOfLine3 = (JSON.parse(lines[2]!) as Row).seed
    writeLines(journal, [...lines, withScore(lines[2]!, 0.123)])

    const conflicting = await resume("conflict", runDir)
    expectCleanRefusal(conflicting)
    expect(conflicting.stderr).toContain(
      `line 11 holds a second, different result for seed ${seedOfLine3} attempt 0 (the first is line 3)`,
    )

    writeLines(journal, [...lines, lines[2]!])
    const copied = await resume("copy", runDir, ["--json"])
    expect(copied.code, copied.stderr).toBe(0)
    expect(JSON.parse(copied.stdout).summary.metrics.mean_score).toBeCloseTo(mean, 12)
    expect(rolloutsIn("copy:resume")).toEqual([])
  })

  it("a line for a seed the run never planned is refused, and never reaches --output-json", async () => {
    const { runDir, journal, lines } = await finishedRun("unplanned")
    writeLines(journal, [...lines, JSON.stringify({ ...JSON.parse(lines[0]!), seed: 99 })])
    const out = join(tmp, "unplanned.json")

    const refused = await resume("unplanned", runDir, ["--output-json", out])
    expectCleanRefusal(refused)
    expect(refused.stderr).toContain("line 11 holds seed 99 attempt 0, which the run's plan does not have")
    expect(existsSync(out)).toBe(false)

    const repaired = await resume("unplanned-repair", runDir, ["--repair", "--output-json", out])
    expect(repaired.code, repaired.stderr).toBe(0)
    const document = JSON.parse(readFileSync(out, "utf8"))
    expect(document.results).toHaveLength(10)
    expect(document.summary).toMatchObject({ planned: 10, completed: 10 })
  })

  it("--repair keeps a backup, drops what is not a planned result, says what, and runs what it dropped again", async () => {
    const { runDir, journal, lines } = await finishedRun("repair")
    const [seedA, seedB] = [lines[1]!, lines[4]!].map((line) => (JSON.parse(line) as Row).seed)
    const corrupted = [
      lines[0]!,
      lines[1]!,
      "{not json",
      ...lines.slice(2, 6),
      JSON.stringify({ ...JSON.parse(lines[0]!), attempt: 3 }),
      withScore(lines[1]!, 0.999),
      ...lines.slice(6, 9),
      lines[4]!,
      lines[9]!.slice(0, 30),
    ]
    // No newline after the last line: a write cut short.
    writeFileSync(journal, corrupted.join("\n"))
    const asCorrupted = readFileSync(journal, "utf8")

    const result = await resume("repair", runDir, ["--repair"])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).not.toMatch(STACK_FRAME)
    const backups = readdirSync(runDir).filter((name) => name.startsWith("results.jsonl.bak-"))
    expect(backups).toHaveLength(1)
    expect(readFileSync(join(runDir, backups[0]!), "utf8")).toBe(asCorrupted)
    expect(result.stderr).toContain(
      `--repair: dropped 6 lines of ${journal}; as it was, it is kept in ${join(runDir, backups[0]!)}`,
    )
    for (const line of [2, 3, 8, 9, 13, 14]) expect(result.stderr).toMatch(new RegExp(`^  line ${line} `, "m"))
    expect(result.stderr).toMatch(/^ {2}line 2 holds a result for seed \d+ attempt 0 that a later line contradicts/m)

    // Seed A's two results disagreed and the last line was torn (seed of line 10): both run again.
    const seedOfTornLine = (JSON.parse(lines[9]!) as Row).seed
    expect(rolloutsIn("repair:resume").sort()).toEqual([seedA!, seedOfTornLine].sort())
    const rows = nonEmptyLines(journal).map((line) => JSON.parse(line) as Row)
    expect(rows.map((row) => row.seed).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(rows.find((row) => row.seed === seedB)).toEqual(JSON.parse(lines[4]!))

    const again = await resume("repair-again", runDir, ["--repair"])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain("nothing dropped")
  })

  it("--repair without --resume is a usage error", async () => {
    const result = await runCli(["eval", "--url", app.url, "--seeds", "0", "--repair", NO_MODEL], { env })
    expectCleanRefusal(result)
    expect(result.stderr).toContain("--repair works with --resume")
  })
})

describe("a resume keeps its plan", () => {
  it("refuses seeds, attempts, an app id or a config file that change the plan, naming each; the same values pass", async () => {
    const { runDir, journal, lines } = await finishedRun("plan")
    writeLines(journal, lines.slice(0, 5))
    const otherSeeds = join(tmp, "other-seeds.toml")
    writeFileSync(otherSeeds, `[eval]\nurl = "${app.url}"\nseeds = [0, 1, 2]\n`)
    const sameSeeds = join(tmp, "same-seeds.toml")
    writeFileSync(sameSeeds, `[eval]\nurl = "${app.url}"\nseeds = "0-9"\nconcurrency = 8\n`)

    const [seeds, attempts, config, appId, model] = await Promise.all([
      resume("plan", runDir, ["--seeds", "100-200"]),
      resume("plan", runDir, ["--attempts", "5"]),
      resume("plan", runDir, ["--config", otherSeeds]),
      runCli(["eval", "other-app", "--resume", runDir, NO_MODEL], { env }),
      resume("plan", runDir, ["--model", "gpt-x"]),
    ])
    for (const result of [seeds, attempts, config, appId, model]) {
      expectCleanRefusal(result)
      expect(result.stderr).toContain(`cannot resume ${runDir} with a different plan`)
    }
    expect(seeds.stderr).toContain("--seeds gives seeds 100-200 (101 seeds), the run has 0-9 (10 seeds)")
    expect(attempts.stderr).toContain("--attempts gives 5, the run has 1")
    expect(config.stderr).toContain(`seeds in ${otherSeeds} gives seeds 0-2 (3 seeds)`)
    expect(appId.stderr).toContain('APP_ID gives "other-app", the run has null')
    expect(model.stderr).toContain('--model gives "gpt-x"')
    expect(rolloutsIn("plan:resume")).toEqual([])
    expect(nonEmptyLines(journal)).toEqual(lines.slice(0, 5))

    const same = await resume("plan-same", runDir, ["--seeds", "0-9", "--config", sameSeeds])
    expect(same.code, same.stderr).toBe(0)
    expect(rolloutsIn("plan-same:resume")).toHaveLength(5)
  })

  it("applies concurrency, retries, timeout and URL given on resume, and says so, one line each", async () => {
    const { runDir, journal, lines } = await finishedRun("settings")
    writeLines(journal, lines.slice(0, 5))
    const result = await resume("settings", runDir, [
      "--concurrency",
      "2",
      "--max-retries",
      "1",
      "--timeout",
      "30",
      "--url",
      `${app.url}/`,
    ])
    expect(result.code, result.stderr).toBe(0)
    const said = result.stderr.split("\n").filter((line) => line.includes("from now on"))
    expect(said.sort()).toEqual([
      "resuming: --concurrency is 2 from now on (the run started with 8)",
      "resuming: --max-retries is 1 from now on (the run started with 3)",
      "resuming: --timeout is 30 from now on (the run started with 300)",
      `resuming: --url is "${app.url}/" from now on (the run started with "${app.url}")`,
    ])
    expect(rolloutsIn("settings:resume")).toHaveLength(5)
  })
})

/** `proctor eval ARGS` in a shell that caps file writes at `blocks` KiB: the run dies writing its first file. */
const withFileSizeLimit = (blocks: number, args: ReadonlyArray<string>): Promise<CliResult> =>
  captured(
    spawn("/bin/sh", ["-c", `ulimit -f ${blocks}; exec "$0" "$@"`, process.execPath, cliBin, ...args], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  ).done

describe("a run directory exists only once its config is whole", () => {
  it("a start that dies writing config.json leaves no config.json behind, and can simply be run again", async () => {
    const runDir = join(tmp, "startup")
    const args = ["eval", "--url", app.url, "--seeds", "0-2", "--run-dir", runDir, NO_MODEL]
    const died = await withFileSizeLimit(0, args)
    expect(died.code, died.stderr).not.toBe(0)
    expect(existsSync(join(runDir, "results.jsonl"))).toBe(false)
    // Before: a 0-byte config.json, after which --resume said "not a run directory".
    expect(existsSync(join(runDir, "config.json"))).toBe(false)

    const resumed = await resume("startup", runDir)
    expectCleanRefusal(resumed)
    expect(resumed.stderr).toContain(`${runDir} is not a run directory (it has no config.json)`)

    const again = await runCli(args, { env })
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(readFileSync(join(runDir, "config.json"), "utf8")).config.seeds).toEqual([0, 1, 2])
  })

  it("a config.json cut short by an earlier proctor is named, with what to do", async () => {
    const runDir = join(tmp, "empty-config")
    await runCli(["eval", "--url", app.url, "--seeds", "0", "--run-dir", runDir, NO_MODEL], { env })
    writeFileSync(join(runDir, "config.json"), "")
    writeFileSync(join(runDir, "results.jsonl"), "")
    const resumed = await resume("empty-config", runDir)
    expectCleanRefusal(resumed)
    expect(resumed.stderr).toContain("the run's start was cut short before any rollout ran; start it again")

    // What a kill while writing the config leaves now: the part written beside it, never in its place.
    rmSync(join(runDir, "config.json"))
    writeFileSync(join(runDir, "config.json.partial"), '{"run_id":')
    const killed = await resume("empty-config", runDir)
    expectCleanRefusal(killed)
    expect(killed.stderr).toContain(`${runDir} has no config.json: the run's start was cut short`)
  })
})
