import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repo } from "./codeBlocks.js"

const fence = "```"
const readme = () => readFileSync(join(repo, "README.md"), "utf8")

/** The README's ```toml blocks, as written. */
const tomlBlocks = (markdown: string): ReadonlyArray<string> =>
  [...markdown.matchAll(new RegExp(`^${fence}toml\\n([\\s\\S]*?)^${fence}$`, "gm"))].map((match) => match[1]!)

describe("what the README says about the repository", () => {
  it("shows examples/math/eval.toml from [eval] on, the file it says it shows", () => {
    expect(readme()).toContain("`examples/math/eval.toml` is a complete one:")
    const file = readFileSync(join(repo, "examples/math/eval.toml"), "utf8")
    expect(tomlBlocks(readme())).toEqual([file.slice(file.indexOf("[eval]\n"))])
  })

  it("names the viewer's commands: proctor view and proctor eval --view", () => {
    expect(readme()).toMatch(/^pnpm proctor view runs\//m)
    expect(readme()).toContain("`proctor eval … --view`")
  })

  it("keeps what proctor writes for the user out of git: runs/ and .proctor/ (it holds secret.key)", () => {
    const paths = ["runs/math-0-99/results.jsonl", ".proctor/secret.key", ".proctor/proctor.db"]
    const ignored = execFileSync("git", ["check-ignore", "--no-index", ...paths], { cwd: repo, encoding: "utf8" })
    expect(ignored.trim().split("\n")).toEqual(paths)
  })
})
