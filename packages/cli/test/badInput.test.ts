import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import {
  type CliResult,
  captured,
  cleanEnv,
  cliBin,
  ensureBuilt,
  killStrayClis,
  runCli,
  startZeroTaskApp,
  type TestTaskApp,
} from "./fixtures/harness.js"

/** Issue 9: every bad input ends in one named line and exit 2, before anything is written; nothing internal. */

const dir = mkdtempSync(join(tmpdir(), "proctor-bad-input-"))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const CLOSED = "http://127.0.0.1:9"

/** `proctor ARGS` as installed: the bin file itself, started through its `#!` line, as a package's shim does. */
const runInstalled = (args: ReadonlyArray<string>, cwd: string): Promise<CliResult> =>
  captured(spawn(cliBin, args, { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] })).done

let app: TestTaskApp
beforeAll(async () => {
  ensureBuilt()
  app = await startZeroTaskApp({ apiKey: "k" })
}, 300_000)
afterAll(async () => {
  killStrayClis()
  await app.close()
})

/** A run against the live task app, in a fresh working directory: refused, it must leave that directory empty. */
const refused = async (args: ReadonlyArray<string>) => {
  const cwd = mkdtempSync(join(dir, "cwd-"))
  const result = await runCli(["eval", "--url", app.url, "--no-intercept", ...args], {
    cwd,
    env: cleanEnv({ ENVIRONMENT_API_KEY: "k" }),
  })
  return { ...result, left: readdirSync(cwd) }
}

describe("proctor eval refuses bad input up front", () => {
  it("attempts × seeds past the maximum: exit 2, one line, no run directory", async () => {
    // Was: exit 1, "proctor: internal error: Invalid typed array length", and a run directory left behind.
    const huge = await refused(["--seeds", "0-4", "--attempts", "1000000000"])
    expect([huge.code, huge.stderr, huge.left]).toEqual([
      2,
      "proctor eval: --attempts: expected a positive integer ≤ 10000000 (the most rollouts a run may plan)\n",
      [],
    ])
    const product = await refused(["--seeds", "0-99999", "--attempts", "1000"])
    expect([product.code, product.left]).toEqual([2, []])
    expect(product.stderr).toContain("a run plans at most 10000000")
  })

  it("a --traces-dir that is a file, or inside one, is refused before the run (was EISDIR after it)", async () => {
    const aFile = file("traces-file", "")
    const named = await refused(["--seeds", "0", "--traces-dir", aFile])
    expect([named.code, named.stderr, named.left]).toEqual([
      2,
      `proctor eval: --traces-dir: ${aFile} is a file, not a directory\n`,
      [],
    ])
    const inside = await refused(["--seeds", "0", "--traces-dir", join(aFile, "sub")])
    expect([inside.code, inside.stderr]).toEqual([
      2,
      `proctor eval: --traces-dir: ${join(aFile, "sub")} is inside ${aFile}, a file\n`,
    ])
    expect(app.started).toEqual([])
  })

  it("a bad --pricing file is refused even when no model call is traced", async () => {
    const bad = file("pricing.json", "{")
    const result = await refused(["--seeds", "0", "--pricing", bad])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(new RegExp(`^proctor eval: ${bad}: not valid JSON: .*\\n$`))
    const missing = await refused(["--seeds", "0", "--pricing", join(dir, "none.json")])
    expect([missing.code, missing.stderr]).toEqual([
      2,
      `proctor eval: pricing file ${join(dir, "none.json")} cannot be read\n`,
    ])
  })

  it("a grace period past a day is refused (its timer would overflow and fire at once)", async () => {
    const result = await refused(["--seeds", "0", "--grace-seconds", "1e300"])
    expect([result.code, result.stderr, result.left]).toEqual([
      2,
      'proctor eval: --grace-seconds: expected a number of seconds from 0 to 86400, got "1e300"\n',
      [],
    ])
  })

  it("--env-file is proctor's flag, not Node's: a missing file is proctor's error, a present one is read", async () => {
    // Was: exit 9, "node: missing.env: not found", printed by Node 20 before proctor ran.
    for (const spelling of [["--env-file", "missing.env"], ["--env-file=missing.env"]]) {
      const result = await runInstalled(["eval", "--url", CLOSED, "--seeds", "0", "--no-intercept", ...spelling], dir)
      expect([result.code, result.stderr]).toEqual([
        2,
        `proctor eval: env file ${join(dir, "missing.env")} cannot be read: no such file (ENOENT)\n`,
      ])
    }
    // The variables reach proctor: the key in the file is the one the task app gets.
    file("present.env", "ENVIRONMENT_API_KEY=k\n")
    const result = await runInstalled(
      ["eval", "--url", app.url, "--seeds", "7", "--no-intercept", "--env-file", "present.env", "--json"],
      dir,
    )
    expect(result.code, result.stderr).toBe(0)
    expect(app.served.map((s) => s.seed)).toContain(7)
  })
})

// ---- fuzz: random argument vectors end in exit 0, 1 or 2 with a named message, never an internal error ------

const badToml = file(
  "bad.toml",
  "[eval]\nurl = 12\nseeds = [1e400]\ntimeout = inf\n[eval.policy_config]\ninference_url = 12\n",
)
const okToml = file("ok.toml", `[eval]\nurl = "${CLOSED}"\nseeds = "0-2"\n`)
const notToml = file("not.toml", "[eval\nurl = ")
const aFile = file("plain-file", "x")

const value = fc.oneof(
  fc.constantFrom("0", "-1", "1e400", "1e9", "NaN", "0-4", "4-0", "99999999999999999999", "", " ", "x", "1.5"),
  fc.constantFrom(CLOSED, "ftp://x", "not a url", aFile, join(aFile, "sub"), "missing.env", badToml, notToml),
  fc.string({ maxLength: 6 }),
)
const option = fc.oneof(
  fc.tuple(
    fc.constantFrom(
      "--seeds",
      "--attempts",
      "--concurrency",
      "--timeout",
      "--max-retries",
      "--url",
      "--inference-url",
      "--provider",
      "--traces-dir",
      "--pricing",
      "--env-file",
      "--config",
      "--fail-under",
      "--grace-seconds",
      "--max-response-bytes",
      "--resume",
      "--run-dir",
      "--table",
    ),
    value,
  ),
  fc.constantFrom(["--strict"], ["--repair"], ["--json"], ["--return-trace"], ["--bogus"], ["extra"]),
  value.map((v) => [`--env-file=${v}`]),
)
const argv = fc
  .tuple(
    fc.constantFrom([] as ReadonlyArray<string>, ["--config", okToml], ["--config", badToml], ["--url", CLOSED]),
    fc.array(option, { maxLength: 4 }),
  )
  .map(([start, options]) => ["eval", "--no-intercept", ...start, ...options.flat()])

describe("CLI argument fuzz", () => {
  it("no argument vector reaches an internal error or a stack trace", async () => {
    const samples = fc.sample(argv, 30)
    const cwd = mkdtempSync(join(dir, "fuzz-"))
    // Four at a time: each is a process of its own.
    for (let i = 0; i < samples.length; i += 4) {
      const batch = samples.slice(i, i + 4)
      const results = await Promise.all(batch.map((args) => runInstalled(args, cwd)))
      results.forEach((result, j) => {
        const what = `proctor ${batch[j]?.join(" ")}\n${result.stderr}`
        expect([0, 1, 2], what).toContain(result.code)
        expect(result.stderr, what).not.toContain("internal error")
        expect(result.stderr, what).not.toMatch(/^ {4}at /m)
      })
    }
  }, 120_000)
})
