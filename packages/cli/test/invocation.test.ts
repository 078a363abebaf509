import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { invocation, shellQuote } from "../src/invocation.js"

/** A checkout-like tree: package.json with a `proctor` script and the CLI's entry file. */
const checkout = () => {
  const root = mkdtempSync(join(tmpdir(), "proctor-invocation-"))
  const script = join(root, "packages/cli/dist/bin.cjs")
  mkdirSync(join(root, "packages/cli/dist"), { recursive: true })
  writeFileSync(script, "#!/usr/bin/env node\n")
  chmodSync(script, 0o755)
  writeFileSync(join(root, "package.json"), "{}")
  return { root, script }
}

/** The variables a package manager sets for a script `name` of the checkout's package.json. */
const scriptEnv = (root: string, userAgent: string, script = "node packages/cli/dist/bin.cjs", name = "proctor") => {
  writeFileSync(join(root, "package.json"), JSON.stringify({ scripts: { [name]: script } }))
  return {
    npm_lifecycle_event: name,
    // pnpm appends the arguments; the script's own text is read from package.json.
    npm_lifecycle_script: `${script} eval --resume runs/x`,
    npm_package_json: join(root, "package.json"),
    npm_config_user_agent: userAgent,
    PATH: "/usr/bin",
  }
}

describe("invocation: the command a hint prints", () => {
  it("is `pnpm proctor` (or npm's / yarn's form) when a package script that is this CLI started it", () => {
    const { root, script } = checkout()
    const pnpm = scriptEnv(root, "pnpm/10.34.9 npm/? node/v20.19.0 linux x64")
    expect(invocation({ env: pnpm, script, cwd: root })).toBe("pnpm proctor")
    const npm = scriptEnv(root, "npm/10.8.2 node/v20.19.0 linux x64 workspaces/false")
    expect(invocation({ env: npm, script, cwd: root })).toBe("npm run proctor --")
    const yarn = scriptEnv(root, "yarn/1.22.22 npm/? node/v20.19.0 linux x64")
    expect(invocation({ env: yarn, script, cwd: root })).toBe("yarn proctor")
  })

  it("ignores a package script that is something else (a test runner that spawns the CLI, or one with arguments)", () => {
    const { root, script } = checkout()
    const vitest = scriptEnv(root, "pnpm/10.34.9 npm/? node/v20.19.0", "vitest run", "test")
    expect(invocation({ env: vitest, script, cwd: root })).toBe("node packages/cli/dist/bin.cjs")
    const withArgs = scriptEnv(
      root,
      "pnpm/10.34.9 npm/? node/v20.19.0",
      "node packages/cli/dist/bin.cjs eval --config x",
      "math",
    )
    expect(invocation({ env: withArgs, script, cwd: root })).toBe("node packages/cli/dist/bin.cjs")
  })

  it("is `proctor` when that name on the PATH is this CLI, but not through node_modules/.bin", () => {
    const { root, script } = checkout()
    const bin = join(root, "bin")
    const dotBin = join(root, "node_modules/.bin")
    mkdirSync(bin)
    mkdirSync(dotBin, { recursive: true })
    symlinkSync(script, join(bin, "proctor"))
    symlinkSync(script, join(dotBin, "proctor"))
    expect(invocation({ env: { PATH: `/usr/bin:${bin}` }, script, cwd: root })).toBe("proctor")
    // Package managers put node_modules/.bin on the PATH of what they run; the user's shell does not have it.
    expect(invocation({ env: { PATH: dotBin }, script, cwd: root })).toBe("node packages/cli/dist/bin.cjs")
    const other = checkout()
    expect(invocation({ env: { PATH: bin }, script: other.script, cwd: other.root })).toBe(
      "node packages/cli/dist/bin.cjs",
    )
  })

  it("is `node <entry file>` otherwise: relative under the working directory, absolute elsewhere, quoted", () => {
    const { root, script } = checkout()
    expect(invocation({ env: {}, script, cwd: root })).toBe("node packages/cli/dist/bin.cjs")
    expect(invocation({ env: {}, script, cwd: join(root, "packages/cli/dist/sub") })).toBe(`node ${script}`)
    expect(invocation({ env: {}, script: "/opt/my tools/bin.js", cwd: "/" })).toBe("node 'opt/my tools/bin.js'")
    expect(shellQuote("it's")).toBe(`'it'\\''s'`)
    expect(shellQuote("runs/math-20261121-101500-ab12")).toBe("runs/math-20261121-101500-ab12")
  })
})
