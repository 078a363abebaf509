import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  cleanEnv,
  ensureBuilt,
  killStrayClis,
  repoRoot,
  runCli,
  startZeroTaskApp,
  type TestTaskApp,
} from "./fixtures/harness.js"

const KEY = "sk-config-test-key-42"
const STACK_FRAME = /^\s+at\s/m

/** The environment with no model endpoint in it, so each test says exactly which one the CLI sees. */
const env = (extra: Record<string, string> = {}) => {
  const base = cleanEnv(extra)
  delete base.OPENAI_BASE_URL
  return base
}

let tmp: string
const cleanups: Array<() => Promise<void> | void> = []

beforeAll(() => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-config-cli-"))
}, 300_000)

afterAll(async () => {
  killStrayClis()
  for (const cleanup of cleanups.reverse()) await cleanup()
  rmSync(tmp, { recursive: true, force: true })
})

const toml = (name: string, text: string) => {
  const path = join(tmp, name)
  writeFileSync(path, text)
  return path
}

/** The README's "Use" block: the commands a new user copies. */
const readmeUseCommands = (): ReadonlyArray<string> => {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8")
  const use = readme.slice(readme.indexOf("## Use"))
  // The section's own blocks: the servers it starts (`sh service`) and the commands it runs (`sh run`).
  const section = use.slice(0, use.indexOf("\n### "))
  const blocks = [...section.matchAll(/```sh[^\n]*\n([\s\S]*?)```/g)].map((match) => match[1] ?? "")
  return blocks
    .join("\n")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "")
}

/**
 * A root package.json script as `pnpm NAME` runs it (`sh -c SCRIPT` in the repository root), in its own
 * process group; resolves once the server prints the URL it listens on.
 */
const startRootScript = async (name: string, extraEnv: Record<string, string>): Promise<string> => {
  const scripts = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).scripts as Record<string, string>
  const script = scripts[name]
  if (script === undefined) throw new Error(`the README runs \`pnpm ${name}\`, which package.json does not define`)
  const child: ChildProcess = spawn("sh", ["-c", script], {
    cwd: repoRoot,
    env: env(extraEnv),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM")
    await exited
  })
  return new Promise<string>((resolve, reject) => {
    let out = ""
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk
      const match = /listening on (http\S+)/.exec(out)
      if (match) resolve(match[1]!)
    })
    child.once("exit", (code) => reject(new Error(`pnpm ${name} exited (${code}) before listening`)))
  })
}

describe("the README's commands against the examples, started as the README says", () => {
  let mathUrl: string
  let modelUrl: string
  const asRun = (command: string): Array<string> =>
    command
      .replaceAll("http://127.0.0.1:8000", mathUrl)
      .replaceAll("http://127.0.0.1:8001/v1", modelUrl)
      .split(/\s+/)
      .slice(2)

  beforeAll(async () => {
    const started = readmeUseCommands().flatMap((line) => /^(?:\w+=\S+ )*pnpm (example:\S+)$/.exec(line)?.[1] ?? [])
    expect(started.sort()).toEqual(["example:math", "example:model"])
    // Free ports instead of the README's 8000 and 8001, which another process may hold.
    ;[modelUrl, mathUrl] = await Promise.all([
      startRootScript("example:model", { PORT: "0" }),
      startRootScript("example:math", { PORT: "0", ENVIRONMENT_API_KEY: KEY }),
    ])
  }, 60_000)

  it("the README's eval command runs every seed against the baseline model", async () => {
    const line = readmeUseCommands().find((l) => l.startsWith("pnpm proctor eval math "))
    expect(line).toBeDefined()
    const cwd = mkdtempSync(join(tmp, "readme-"))
    const result = await runCli(asRun(line!), { env: env({ ENVIRONMENT_API_KEY: KEY }), cwd })
    expect(result.code, result.stderr).toBe(0)
    const runDir = /--run-dir (\S+)/.exec(line!)?.[1] ?? ""
    const summary = JSON.parse(readFileSync(join(cwd, runDir, "summary.json"), "utf8"))
    expect(summary).toMatchObject({ planned: 100, completed: 100, ok: 100, is_valid: true })
    expect(summary.metrics.mean_score).toBeGreaterThan(0.5)
  }, 120_000)

  it("the README's task-app check passes the math example, test rollout included", async () => {
    const line = readmeUseCommands().find((l) => l.startsWith("pnpm proctor task-app check "))
    expect(line).toBeDefined()
    const result = await runCli(asRun(line!), { env: env({ ENVIRONMENT_API_KEY: KEY }) })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).not.toMatch(/^(FAIL|skip)/m)
    expect(result.stdout).toMatch(/^ok\s+rollout score/m)
  }, 60_000)

  it("task-app check without a model endpoint checks the rest and says the rollout was skipped, and why", async () => {
    const result = await runCli(["task-app", "check", mathUrl], { env: env({ ENVIRONMENT_API_KEY: KEY }) })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).not.toContain("FAIL")
    expect(result.stdout).toMatch(/^ok\s+GET \/task_info\?seed&seed/m)
    expect(result.stdout).toMatch(/^skip\s+POST \/rollout: no model endpoint to call: pass --inference-url/m)
    expect(result.stdout).toContain("follows the task-app contract (not checked: POST /rollout)")
  }, 60_000)

  it("task-app check reports a missing or refused key once, as the cause", async () => {
    const wrongKey = "sk-wrong-config-key-7"
    const [missing, wrong] = await Promise.all([
      runCli(["task-app", "check", mathUrl], { env: env() }),
      runCli(["task-app", "check", mathUrl], { env: env({ ENVIRONMENT_API_KEY: wrongKey }) }),
    ])
    for (const result of [missing, wrong]) {
      expect(result.code, result.stdout + result.stderr).toBe(2)
      expect(result.stdout.split("\n").filter((l) => l.startsWith("FAIL"))).toHaveLength(1)
      expect(result.stdout).toMatch(/^skip\s+the other checks/m)
      expect(result.stdout).toContain("did not accept the task-app key")
    }
    expect(missing.stdout).toMatch(/^FAIL\s+task-app key: the task app requires a key .* none was given/m)
    expect(wrong.stdout).toMatch(/^FAIL\s+task-app key: the task app refused the key given/m)
    expect(wrong.stdout + wrong.stderr).not.toContain(wrongKey)
  }, 60_000)
})

describe("config and flags, in proctor's words", () => {
  let app: TestTaskApp
  beforeAll(async () => {
    app = await startZeroTaskApp({ apiKey: KEY })
    cleanups.push(app.close)
  })
  const keyed = () => env({ ENVIRONMENT_API_KEY: KEY })

  it("a direct run with no model endpoint stops before the first rollout, naming what to set", async () => {
    const result = await runCli(["eval", "--url", app.url, "--seeds", "0-3", "--run-dir", join(tmp, "no-model")], {
      env: keyed(),
    })
    expect(result.code, result.stderr).toBe(2)
    for (const way of ["no model endpoint", "--inference-url", "--provider", "[eval.policy_config]", "OPENAI_BASE_URL"])
      expect(result.stderr).toContain(way)
    expect(result.stderr).toContain("--no-intercept")
    expect(result.stderr).not.toMatch(STACK_FRAME)
    expect(app.started).toEqual([])
  })

  it("flag values that are not numbers or not scores are usage errors in proctor's words", async () => {
    const base = ["eval", "--url", app.url, "--seeds", "0", "--no-intercept"]
    const [concurrency, failUnder, notAScore] = await Promise.all([
      runCli([...base, "--concurrency", "abc"], { env: keyed() }),
      runCli([...base, "--fail-under", "95"], { env: keyed() }),
      runCli([...base, "--fail-under", "high"], { env: keyed() }),
    ])
    for (const result of [concurrency, failUnder, notAScore]) {
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).not.toMatch(STACK_FRAME)
      expect(result.stderr).not.toMatch(/NumberFromString|Expected/)
    }
    expect(concurrency.stderr).toBe('proctor eval: --concurrency: expected a positive integer, got "abc"\n')
    expect(failUnder.stderr).toBe(
      'proctor eval: --fail-under: expected a score from 0 to 1, got "95" (scores run 0–1; did you mean 0.95?)\n',
    )
    expect(notAScore.stderr).toBe('proctor eval: --fail-under: expected a score from 0 to 1, got "high"\n')
    expect(app.started).toEqual([])
  })

  it("misspelt keys are warnings and the run goes on with proctor's defaults; --strict refuses them", async () => {
    const path = toml("typos.toml", `[eval]\nurl = "${app.url}"\nseeds = [0, 1]\nconcurrancy = 3\nattempt = 3\n`)
    const runDir = join(tmp, "typos-run")
    const warned = await runCli(["eval", "--config", path, "--run-dir", runDir, "--no-intercept", "--json"], {
      env: keyed(),
    })
    expect(warned.code, warned.stderr).toBe(0)
    expect(warned.stderr).toContain(`warning: ${path}: eval.concurrancy: unknown key — did you mean eval.concurrency?`)
    expect(warned.stderr).toContain(`warning: ${path}: eval.attempt: unknown key — did you mean eval.attempts?`)
    const manifest = JSON.parse(readFileSync(join(runDir, "config.json"), "utf8"))
    expect([manifest.config.concurrency, manifest.config.attempts]).toEqual([8, 1])

    const served = app.started.length
    const strict = await runCli(["eval", "--config", path, "--strict", "--no-intercept"], { env: keyed() })
    expect(strict.code, strict.stderr).toBe(2)
    expect(strict.stderr).toContain("eval.concurrancy: unknown key — did you mean eval.concurrency?")
    expect(strict.stderr).toContain("eval.attempt: unknown key — did you mean eval.attempts?")
    expect(app.started).toHaveLength(served)
  })

  it("keys in the wrong table are named with the right one", async () => {
    const underEval = toml(
      "under-eval.toml",
      `[eval]\nurl = "${app.url}"\nseeds = [0]\ninference_url = "http://127.0.0.1:9/v1"\n`,
    )
    const evaluation = toml("evaluation.toml", `[evaluation]\nurl = "${app.url}"\nseeds = [0]\n`)
    const [misplaced, renamed] = await Promise.all([
      runCli(["eval", "--config", underEval], { env: keyed() }),
      runCli(["eval", "--config", evaluation, "--no-intercept"], { env: keyed() }),
    ])
    expect(misplaced.code, misplaced.stderr).toBe(2)
    expect(misplaced.stderr).toContain(`warning: ${underEval}: eval.inference_url: belongs in [eval.policy_config]`)
    expect(misplaced.stderr).toContain("no model endpoint")
    expect(renamed.code, renamed.stderr).toBe(2)
    expect(renamed.stderr).toBe(
      `proctor eval: ${evaluation}: evaluation.url is not read: put it in the [eval] table itself, or pass --url\n`,
    )
  })

  it("a TOML syntax error names the line and column and shows the spot", async () => {
    const path = toml("syntax.toml", `[eval]\nurl = "${app.url}"\nseeds = [0, 1\nconcurrency = 3\n`)
    const result = await runCli(["eval", "--config", path], { env: keyed() })
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toContain(`proctor eval: ${path}:4:1: not valid TOML: expected comma or end of structure\n`)
    expect(result.stderr).toContain("3:  seeds = [0, 1\n4:  concurrency = 3\n    ^\n")
    expect(result.stderr).not.toMatch(STACK_FRAME)
  })
})
