import { existsSync, realpathSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

/**
 * Where to look for an agent's npm package: the current directory's `node_modules` first (a project that installs
 * `@openai/codex` itself), then the running proctor's own (its devDependencies in this repository).
 */
const searchBases = (): ReadonlyArray<string> => {
  const bases = [join(process.cwd(), "package.json")]
  const script = process.argv[1]
  if (script !== undefined && existsSync(script)) bases.push(realpathSync(script))
  return bases
}

/** The directory of an installed npm package, resolved from `from` (a package directory) or the search bases. */
export const packageDir = (name: string, from?: string): string | null => {
  for (const base of from === undefined ? searchBases() : [join(from, "package.json")]) {
    try {
      return dirname(realpathSync(createRequire(base).resolve(`${name}/package.json`)))
    } catch {
      // Not installed where this base looks: try the next.
    }
  }
  return null
}

/**
 * The native program of a command-line agent shipped as a platform package (`@openai/codex-linux-x64`,
 * `@anthropic-ai/claude-code-linux-x64`) next to its launcher package; proctor runs it directly, without the
 * launcher's node, so a container needs no node. Null (with what is missing) when it is not installed.
 */
export const platformBinary = (
  launcher: string,
  platformPackage: string,
  pathInPackage: string,
): { readonly path: string } | { readonly missing: string } => {
  const launcherDir = packageDir(launcher)
  if (launcherDir === null) return { missing: `${launcher} is not installed (npm i -D ${launcher})` }
  const platformDir = packageDir(platformPackage, launcherDir)
  if (platformDir === null) {
    return { missing: `${platformPackage} (${launcher}'s program for this platform) is not installed` }
  }
  const path = join(platformDir, pathInPackage)
  return existsSync(path) ? { path } : { missing: `${path} does not exist` }
}
