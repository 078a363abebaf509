import { execFile, execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

export const repo = fileURLToPath(new URL("../../../../", import.meta.url))

/** What a user installs from the registry: the CLI, the library, the task-app SDK, and what they depend on. */
export const PUBLIC_PACKAGES = ["cli", "core", "task-app", "report", "viewer", "sandbox", "server"] as const

export interface PackedPackage {
  readonly dir: string
  readonly name: string
  readonly tarball: string
}

export interface PackedSet {
  readonly dir: string
  readonly packages: ReadonlyArray<PackedPackage>
  /** Of every tarball's bytes: the key of the cached installs made from them. */
  readonly digest: string
}

/**
 * A command run to its end without blocking the event loop: a test worker that blocks for minutes misses
 * vitest's own messages.
 */
export const run = (
  command: string,
  args: ReadonlyArray<string>,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) => promisify(execFile)(command, [...args], { ...options, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })

/** `pnpm` as the README says it, where only `npx pnpm@10` works. */
const pnpm = (args: ReadonlyArray<string>, cwd: string) => run("npx", ["-y", "pnpm@10", ...args], { cwd })

/** What the packaging tests build: the public packages and the examples they run against. */
const BUILT = ["proctor", "@proctor/task-app", "@proctor/example-math", "@proctor/example-baseline-model"]

/** Builds (turbo: a no-op when nothing changed) and packs each public package into a temp dir. */
export const packPublicPackages = async (): Promise<PackedSet> => {
  await pnpm(["exec", "turbo", "run", "build", ...BUILT.map((name) => `--filter=${name}...`)], repo)
  const dir = mkdtempSync(join(tmpdir(), "proctor-tarballs-"))
  // Packed side by side (each pack is mostly npx and pnpm starting up), each into a folder of its own.
  const packages = await Promise.all(
    PUBLIC_PACKAGES.map(async (name): Promise<PackedPackage> => {
      const packageDir = join(repo, "packages", name)
      const destination = join(dir, name)
      mkdirSync(destination)
      await pnpm(["pack", "--pack-destination", destination], packageDir)
      const tarball = readdirSync(destination).find((file) => file.endsWith(".tgz"))
      if (tarball === undefined) throw new Error(`pnpm pack made no tarball for packages/${name}`)
      const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { name: string }
      return { dir: packageDir, name: manifest.name, tarball: join(destination, tarball) }
    }),
  )
  const hash = createHash("sha256")
  for (const { tarball } of packages) hash.update(readFileSync(tarball))
  return { dir, packages, digest: hash.digest("hex").slice(0, 16) }
}

/** The packed package.json of a tarball, as npm will read it. */
export const packedManifest = (tarball: string): Record<string, unknown> =>
  JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }))

/** Every file in a tarball, without the `package/` prefix. */
export const packedFiles = (tarball: string): ReadonlyArray<string> =>
  execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.replace(/^package\//, ""))
