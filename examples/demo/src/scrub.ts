import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const REDACTED = "[redacted]"

/**
 * Replaces every occurrence of `secret` in the files under `dir` and returns the files it changed. The CLI
 * records `policy_config` as given (config.json, results.json), so a model key passed that way would
 * otherwise stay on disk in a directory people share and zip.
 */
export const scrubSecret = (dir: string, secret: string): string[] => {
  if (secret.length < 8) throw new Error("refusing to scrub a secret shorter than 8 characters")
  // As written raw, and as it appears inside a JSON string when it holds characters JSON escapes.
  const forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1)])]
  const needles = forms.map((form) => Buffer.from(form))
  const changed: string[] = []
  const walk = (path: string) => {
    let entries: string[]
    try {
      entries = readdirSync(path)
    } catch {
      return
    }
    for (const entry of entries) {
      const file = join(path, entry)
      const stats = statSync(file, { throwIfNoEntry: false })
      if (stats === undefined) continue
      if (stats.isDirectory()) {
        walk(file)
        continue
      }
      if (!stats.isFile()) continue
      const contents = readFileSync(file)
      if (needles.every((needle) => contents.indexOf(needle) === -1)) continue
      writeFileSync(
        file,
        forms.reduce((text, form) => text.replaceAll(form, REDACTED), contents.toString("utf8")),
      )
      changed.push(file)
    }
  }
  walk(dir)
  return changed
}
