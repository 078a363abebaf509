import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { log } from "./cli.js"

/** The checkout the benches run from (this file is bench/shared/dist/resultsFile.js). */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url))
export const RESULTS_PATH = fileURLToPath(new URL("../../RESULTS.md", import.meta.url))

/** Replaces one bench's section of RESULTS.md (from its heading to the next `## `), keeping the others. */
const writeSection = (path: string, heading: string, section: string): void => {
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

/** Prints a bench's section and, unless `--no-write` was given, puts it into bench/RESULTS.md. */
export const publishSection = (heading: string, section: string): void => {
  process.stdout.write(`\n${section}\n`)
  if (process.argv.includes("--no-write")) return
  writeSection(RESULTS_PATH, heading, section)
  log(`wrote the "${heading}" section of ${RESULTS_PATH}`)
}
