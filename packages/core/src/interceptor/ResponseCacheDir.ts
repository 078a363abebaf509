import { homedir } from "node:os"
import { isAbsolute, join } from "node:path"

/**
 * Where the response cache lives unless `cache_dir` says otherwise: `$XDG_CACHE_HOME/proctor/responses`, else
 * `~/.cache/proctor/responses`, on every platform, so every run of one user shares it.
 */
export const defaultCacheDir = (env: Readonly<Record<string, string | undefined>>): string => {
  const xdg = env.XDG_CACHE_HOME
  // The XDG spec ignores a relative XDG_CACHE_HOME.
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), ".cache")
  return join(base, "proctor", "responses")
}

/** The response cache directory a run uses: null when its config does not turn the cache on. */
export const responseCacheDirOf = (
  config: { readonly cache?: boolean | undefined; readonly cache_dir?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): string | null => (config.cache === true ? (config.cache_dir ?? defaultCacheDir(env)) : null)
