import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { Script } from "node:vm"

export interface LoadedScript {
  /** What the script's entry module exports. */
  readonly exports: Record<string, unknown>
  /** The compiled script, for `createCachedData()` (build.mjs makes the code cache with it). */
  readonly script: Script
  /** True when a code cache was there but V8 refused it (another Node, V8 flags); the script compiled anyway. */
  readonly cacheRejected: boolean
}

const loaded = new Map<string, LoadedScript>()

/** The script this process loaded from `url`, if it did: the build makes a code cache from it after a run. */
export const loadedScript = (url: URL): LoadedScript | undefined => loaded.get(url.href)

/** Where a script's code cache lives: beside it. */
export const codeCacheOf = (script: URL): URL => new URL(`${script.href}.cache`)

/**
 * Loads one of the CLI's script bundles (build.mjs): a CommonJS bundle wrapped as a function of `module`,
 * `require`, `__filename` and `__import` (its `import()`), compiled with the V8 code cache beside it when there
 * is one, so the code its module initialisation ran is not parsed or compiled again. Node 20 gives ES modules no
 * code cache.
 */
export const loadScript = (url: URL): LoadedScript => {
  const filename = fileURLToPath(url)
  const cache = codeCacheOf(url)
  const cachedData = existsSync(cache) ? readFileSync(cache) : undefined
  // Read as Latin-1, which for these ASCII files (build.mjs escapes the rest) is the same text as UTF-8: Node hands a
  // Latin-1 string of more than a megabyte to V8 as an external string, outside the JS heap. Read as UTF-8, the eval
  // script's 4 MB were one more object of the old generation that a run's collections counted (peak RSS 2.4 MB lower).
  const script = new Script(readFileSync(filename, "latin1"), { filename, ...(cachedData ? { cachedData } : {}) })
  const module = { exports: {} as Record<string, unknown> }
  const body = script.runInThisContext() as (
    module: unknown,
    require: NodeJS.Require,
    filename: string,
    importModule: (specifier: string) => Promise<unknown>,
  ) => void
  // A script's own `import()` would need vm's experimental loader option (and print its warning): the script
  // imports ES modules through this module's instead, relative to the script.
  body(module, createRequire(filename), filename, (specifier) => import(new URL(specifier, url).href))
  const result = {
    exports: module.exports,
    script,
    cacheRejected: cachedData !== undefined && script.cachedDataRejected === true,
  }
  loaded.set(url.href, result)
  return result
}
