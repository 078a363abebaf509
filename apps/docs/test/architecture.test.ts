import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { dirname, posix } from "node:path"
import { describe, expect, it } from "vitest"

const repo = new URL("../../../", import.meta.url)

/** The committed TypeScript sources of every package, app, example and bench (their tests aside). */
const sources = (): ReadonlyArray<string> =>
  execFileSync("git", ["ls-files", "--", "*/src/**/*.ts", "*/src/**/*.tsx"], { cwd: repo, encoding: "utf8" })
    .split("\n")
    .filter((path) => path !== "")

const importsOf = (path: string): ReadonlyArray<string> =>
  [...readFileSync(new URL(path, repo), "utf8").matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map(
    (match) => (match[1] ?? match[2]) as string,
  )

/**
 * Where an import of `specifier` from `file` breaks the rule that an `internal/` folder serves only the folder that
 * holds it (and that folder's subfolders): a relative path into another folder's `internal/`, or a package's.
 */
const reachOf = (file: string, specifier: string): string | null => {
  if (specifier.startsWith("@proctor/") || specifier === "proctor" || specifier.startsWith("proctor/"))
    return specifier.split("/").includes("internal") ? `${file} imports ${specifier}` : null
  if (!specifier.startsWith(".")) return null
  const target = posix.join(dirname(file), specifier)
  const at = target.lastIndexOf("/internal/")
  if (at === -1) return null
  const owner = target.slice(0, at)
  const from = dirname(file)
  return from === owner || from.startsWith(`${owner}/`) ? null : `${file} imports ${specifier}`
}

describe("the packages' structure", () => {
  it("no source imports an internal/ folder but its own folder's, or its parents'", () => {
    const files = sources()
    expect(files.length).toBeGreaterThan(100)
    const reaches = files.flatMap((file) => importsOf(file).flatMap((specifier) => reachOf(file, specifier) ?? []))
    expect(reaches).toEqual([])
  })

  it("the rule's check sees a reach when there is one", () => {
    expect(reachOf("packages/core/src/grader/GraderSpec.ts", "../config/internal/reviewConfigKeys.js")).not.toBeNull()
    expect(reachOf("packages/cli/src/main.ts", "@proctor/core/internal/x")).not.toBeNull()
    expect(reachOf("packages/core/src/config/loadEvalConfig.ts", "./internal/reviewConfigKeys.js")).toBeNull()
    expect(reachOf("packages/core/src/config/internal/reviewConfigKeys.ts", "../../internal/nearestName.js")).toBeNull()
  })
})
