import { existsSync, readFileSync, writeFileSync } from "node:fs"

/** Replaces one bench's section of RESULTS.md (from its heading to the next `## `), keeping the others. */
export const writeSection = (path: string, heading: string, section: string): void => {
  const existing = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmark results\n\n"
  const lines = existing.split("\n")
  const start = lines.findIndex((l) => l.trim() === heading)
  let next: string
  if (start === -1) {
    next = `${existing.replace(/\n*$/, "\n\n")}${section}`
  } else {
    let end = lines.findIndex((l, i) => i > start && l.startsWith("## "))
    if (end === -1) end = lines.length
    const before = lines.slice(0, start).join("\n")
    const after = lines.slice(end).join("\n")
    next = `${before.replace(/\n*$/, "\n\n")}${section}${after === "" ? "" : `\n${after}`}`
  }
  writeFileSync(path, next.replace(/\n*$/, "\n"))
}
