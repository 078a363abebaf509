import { spawn } from "node:child_process"
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { join } from "node:path"
import { waitFor } from "@proctor/test-kit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { captured, cleanEnv, startExample } from "./fixtures/harness.js"
import { sectionBlocks, withPorts } from "./packaging/docsBlocks.js"
import { envFor, type InstalledProject, installedProject, machineNode } from "./packaging/installs.js"
import { type PackedSet, packedFiles, packedManifest, packPublicPackages, repo } from "./packaging/tarballs.js"

/**
 * proctor as a user gets it: every public package packed (`pnpm pack`), the tarballs installed with npm into a
 * fresh ES module project outside the repository (no workspace, no links), and the docs' quick start run there
 * as the docs write it — the CLI with `npx proctor`, a task app on the task-app SDK with `npx tsx`, and an
 * `evaluate()` eval. The example task app and the baseline model come from the repository (they are not
 * published); only their ports differ from the docs'. packaging.nodes.test.ts runs the installed CLI on every
 * Node version users have.
 */

const TESTED_NODE_MAJORS = [20, 22, 24, 26]

/** Packages a bundle or a generated string names without loading them from the installed tree. */
const NOT_LOADED: Readonly<Record<string, string>> = {
  ajv: 'fastify\'s ajv writes `require("ajv/dist/runtime/…")` into the code it generates only in standalone mode',
  "ajv-formats": "as ajv: a `require` in code it generates for standalone mode",
  moveToFinished: 'not a package: bullmq\'s Lua scripts say `requires code from "moveToFinished"` in a comment',
  "pg-native": "pg's optional native driver, loaded only when asked for",
  bufferutil: "ws's optional accelerator, required inside a try",
  "utf-8-validate": "ws's optional accelerator, required inside a try",
}

/** Dependencies declared to satisfy another dependency's peers, which the package's code does not import. */
const PEERS_PROVIDED: Readonly<Record<string, ReadonlyArray<string>>> = {
  "@proctor/server": ["@effect/platform"],
}

/** Packages whose install scripts are allowed: native addon builds, never telemetry or downloads of their own. */
const INSTALL_SCRIPTS_ALLOWED: Readonly<Record<string, string>> = {
  "better-sqlite3": "SQLite for Node 20 (prebuild-install, else node-gyp against the running Node's headers)",
  "msgpackr-extract": "picks its prebuilt addon from an optional npm package (node-gyp-build-optional-packages)",
}

const bareImports = (source: string): ReadonlyArray<string> =>
  [
    ...source.matchAll(
      /(?:[}\s*]from\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|createRequire\([\w.]*\)\(\s*)"((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]*)?)"/g,
    ),
  ]
    .map((match) => match[1]!)
    .map((specifier) =>
      specifier.startsWith("@") ? specifier.split("/").slice(0, 2) : specifier.split("/").slice(0, 1),
    )
    .map((parts) => parts.join("/"))

const codeFilesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return codeFilesUnder(path)
    // Declarations too: a package whose types name another's needs it installed for its users' TypeScript.
    return /\.(c|m)?js$|\.d\.ts$/.test(name) ? [path] : []
  })

/** Where Node resolves `name` from `dir`: its own node_modules, then each parent's. */
const resolvePackageDir = (dir: string, name: string): string | undefined => {
  for (let at = dir; ; at = join(at, "..")) {
    const candidate = join(at, "node_modules", name)
    if (existsSync(join(candidate, "package.json"))) return candidate
    if (at === "/" || at === join(at, "..")) return undefined
  }
}

interface Manifest {
  readonly name: string
  readonly scripts?: Record<string, string>
  readonly dependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
}

/** Every package the proctor packages pull in (dependencies and optional ones, transitively), by directory. */
const dependencyClosure = (roots: ReadonlyArray<string>): ReadonlyMap<string, Manifest> => {
  const seen = new Map<string, Manifest>()
  const visit = (dir: string) => {
    if (seen.has(dir)) return
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest
    seen.set(dir, manifest)
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const found = resolvePackageDir(dir, name)
      if (found !== undefined) visit(found)
    }
  }
  for (const root of roots) visit(root)
  return seen
}

describe("the published packages, installed from their tarballs into a fresh project", () => {
  let packed: PackedSet
  let project: InstalledProject
  let model: { readonly url: string; readonly stop: () => Promise<void> }
  let math: { readonly url: string; readonly stop: () => Promise<void> }
  const env = () => envFor(machineNode(), cleanEnv())

  beforeAll(async () => {
    packed = await packPublicPackages()
    project = await installedProject(packed, machineNode())
    ;[model, math] = await Promise.all([
      startExample("examples/baseline-model/dist/main.js", cleanEnv({ PORT: "0" })),
      startExample("examples/math/dist/main.js", cleanEnv({ PORT: "0", ENVIRONMENT_API_KEY: "dev" })),
    ])
  }, 900_000)

  afterAll(async () => {
    await Promise.all([model?.stop(), math?.stop()])
    if (project !== undefined) rmSync(project.dir, { recursive: true, force: true })
    if (packed !== undefined) rmSync(packed.dir, { recursive: true, force: true })
  })

  /** A bash script in the project, as a user's terminal runs it: exit code and everything it printed. */
  const bash = (script: string, timeoutMs = 180_000) => {
    const child = spawn("bash", ["-c", `set -euo pipefail\n${script}`], {
      cwd: project.dir,
      env: env(),
      stdio: ["ignore", "pipe", "pipe"],
    })
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    return captured(child).done.finally(() => clearTimeout(timer))
  }

  it("each package holds built JS and types only, no workspace or catalog specifier, and says what it is", () => {
    const rootEngines = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { engines: { node: string } })
      .engines.node
    for (const { name, tarball } of packed.packages) {
      const manifest = packedManifest(tarball)
      const text = JSON.stringify(manifest)
      expect(text, name).not.toMatch(/workspace:|catalog:/)
      expect(text, `${name}: the source condition points at files not shipped`).not.toContain('"source"')
      expect(manifest, name).toMatchObject({
        name,
        license: "MIT",
        description: expect.any(String),
        engines: { node: rootEngines },
      })
      // No public repository exists yet: a made-up address would send users nowhere.
      expect(manifest, name).not.toHaveProperty("repository")
      for (const major of TESTED_NODE_MAJORS) expect(rootEngines).toMatch(new RegExp(`\\^${major}\\.`))
      const files = packedFiles(tarball)
      expect(files, `${name} ships its licence`).toContain("LICENSE")
      expect(
        files.filter((file) => !file.startsWith("dist/") && !/^(package\.json|README\.md|LICENSE)$/.test(file)),
        name,
      ).toEqual([])
      expect(
        files.filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts")),
        name,
      ).toEqual([])
    }
  })

  it("each package declares what its code loads, and nothing it does not", () => {
    for (const { name } of packed.packages) {
      const installed = join(project.dir, "node_modules", name)
      const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as Manifest & {
        peerDependencies?: Record<string, string>
      }
      const declared = new Set(
        Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies }),
      )
      const loaded = new Set(
        codeFilesUnder(join(installed, "dist"))
          .flatMap((file) => bareImports(readFileSync(file, "utf8")))
          .filter((pkg) => !builtinModules.includes(pkg) && !pkg.startsWith("node:") && pkg !== name)
          // A package that declares one of these loads it itself (core's graders load ajv).
          .filter((pkg) => NOT_LOADED[pkg] === undefined || declared.has(pkg)),
      )
      expect(
        [...loaded].filter((pkg) => !declared.has(pkg)),
        `${name} loads undeclared packages`,
      ).toEqual([])
      const unused = [...declared].filter((pkg) => !loaded.has(pkg) && !PEERS_PROVIDED[name]?.includes(pkg))
      expect(unused, `${name} declares packages it never loads`).toEqual([])
    }
  })

  it("nothing in the installed tree runs an install script but a native addon build; no telemetry", () => {
    const roots = packed.packages.map(({ name }) => join(project.dir, "node_modules", name))
    const withScripts = [...dependencyClosure(roots)].flatMap(([dir, manifest]) => {
      const scripts = ["preinstall", "install", "postinstall"].filter((hook) => manifest.scripts?.[hook] !== undefined)
      // npm runs `node-gyp rebuild` for a binding.gyp with no install script of its own.
      const implicit = scripts.length === 0 && existsSync(join(dir, "binding.gyp")) ? ["install (node-gyp)"] : []
      return [...scripts, ...implicit].length === 0 ? [] : [manifest.name]
    })
    expect(withScripts.filter((pkg) => INSTALL_SCRIPTS_ALLOWED[pkg] === undefined)).toEqual([])
    expect(existsSync(join(project.dir, "node_modules", "@scarf"))).toBe(false)
  })

  it("npx proctor --version and --help", async () => {
    const version = (JSON.parse(readFileSync(join(repo, "packages/cli/package.json"), "utf8")) as { version: string })
      .version
    const shown = await bash("npx proctor --version && npx proctor --help")
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toContain(version)
    expect(shown.stdout).toMatch(/Usage: proctor/)
  })

  it("the quick start's evals, as the docs write them (with npx proctor)", async () => {
    const blocks = sectionBlocks("guide/quick-start.md", "Evaluate a model on a task app").filter(
      // The config file is the checkout's.
      (block) => block.language === "sh" && block.mode === "run" && !block.code.includes("examples/"),
    )
    expect(blocks.length).toBeGreaterThanOrEqual(3)
    for (const block of blocks) {
      const { code, stdout, stderr } = await bash(withPorts(block.code, { math: math.url, model: model.url }))
      expect(code, `quick-start.md:${block.line}:\n${block.code}\n${stdout}\n${stderr}`).toBe(block.expectedExit)
    }
    expect(existsSync(join(project.dir, "runs/quick-start/results.jsonl"))).toBe(true)
  }, 600_000)

  it("the quick start's own task app on @proctor/task-app, run with npx tsx as the docs say", async () => {
    const blocks = sectionBlocks("guide/quick-start.md", "Your own task app")
    const app = blocks.find((block) => block.language === "ts")
    if (app === undefined) throw new Error("quick-start.md: no task app block under ## Your own task app")
    writeFileSync(join(project.dir, "echo.ts"), app.code)
    const child = spawn("npx", ["tsx", "echo.ts"], {
      cwd: project.dir,
      env: { ...env(), PORT: "0", ENVIRONMENT_API_KEY: "dev" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    })
    const echo = captured(child)
    try {
      await waitFor(
        `echo.ts to listen:\n${echo.stderr()}`,
        () => /listening on http/.test(echo.stdout()) || child.exitCode !== null,
        60_000,
      )
      const url = /listening on (http\S+)/.exec(echo.stdout())?.[1]
      expect(url, echo.stderr()).toBeDefined()
      const runs = blocks.filter((block) => block.language === "sh" && block.mode === "run")
      expect(runs.length).toBeGreaterThan(0)
      for (const block of runs) {
        const result = await bash(withPorts(block.code, { math: math.url, model: model.url, echo: url! }))
        expect(result.code, `${block.code}\n${result.stdout}\n${result.stderr}`).toBe(block.expectedExit)
      }
      const results = readFileSync(join(project.dir, "runs/echo/results.jsonl"), "utf8").trim().split("\n")
      expect(results).toHaveLength(10)
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM")
      await echo.done
    }
  }, 300_000)

  it("evaluate() from @proctor/core, as the docs write it (npx tsx)", async () => {
    const block = sectionBlocks("guide/evaluate.md", "An eval in twenty lines").find((b) => b.language === "ts")
    if (block === undefined) throw new Error("evaluate.md: no ts block under ## An eval in twenty lines")
    writeFileSync(join(project.dir, "greetings.ts"), withPorts(block.code, { math: math.url, model: model.url }))
    const result = await bash("npx tsx greetings.ts")
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain("runs/greetings")
    expect(readFileSync(join(project.dir, "runs/greetings/results.jsonl"), "utf8").trim().split("\n")).toHaveLength(6)
  }, 300_000)
})
