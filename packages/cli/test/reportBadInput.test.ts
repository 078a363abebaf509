import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ensureBuilt, runCli } from "./fixtures/harness.js"

/** `proctor report`'s bad input: one line naming what is wrong, exit 2, and no file written. */

let dir: string
beforeAll(() => {
  ensureBuilt()
  dir = mkdtempSync(join(tmpdir(), "proctor-report-bad-"))
  mkdirSync(join(dir, "not-a-run"))
  mkdirSync(join(dir, "grid"))
  writeFileSync(join(dir, "grid", "grid.json"), "{}")
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("proctor report: bad input", () => {
  const out = () => join(dir, "out.html")
  const cases: ReadonlyArray<[string, () => ReadonlyArray<string>, string]> = [
    ["no --html", () => [join(dir, "not-a-run")], "--html: expected the file to write"],
    ["no such directory", () => [join(dir, "missing"), "--html", out()], "missing: no such run directory"],
    ["a directory that is no run", () => [join(dir, "not-a-run"), "--html", out()], "is not a run directory"],
    ["three runs", () => [dir, dir, dir, "--html", out()], "expected one run directory, or two to compare; got 3"],
    [
      "a grid run beside another run",
      () => [join(dir, "grid"), join(dir, "not-a-run"), "--html", out()],
      "grid is a grid run directory: report it on its own",
    ],
    ["a grid run whose grid.json is no grid's", () => [join(dir, "grid"), "--html", out()], "is not a grid manifest"],
    ["the file's directory missing", () => [dir, "--html", join(dir, "nope", "x.html")], "--html: "],
    [
      "a budget that is no number",
      () => [dir, "--html", out(), "--max-transcripts-mb", "lots"],
      "--max-transcripts-mb",
    ],
  ]
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const result = await runCli(["report", ...args()])
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(message)
      expect(result.stderr.trim().split("\n")).toHaveLength(1)
      expect(existsSync(out())).toBe(false)
    })
  }
})
