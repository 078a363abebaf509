import { readFileSync } from "node:fs"
import { join } from "node:path"
import { type CodeBlock, readmeBlocks } from "../../../../examples/library/test/readmeBlocks.js"
import { repo } from "./tarballs.js"

/** The code blocks under one `## ` heading of a docs page, as `readmeBlocks` reads them. */
export const sectionBlocks = (page: string, heading: string): ReadonlyArray<CodeBlock> => {
  const markdown = readFileSync(join(repo, "apps/docs/pages", page), "utf8")
  const sections = markdown.split(/^## /m)
  const section = sections.find((text) => text.startsWith(`${heading}\n`))
  if (section === undefined) throw new Error(`${page} has no section "## ${heading}"`)
  return readmeBlocks(section, page).blocks
}

/** Where the docs' examples listen (`pnpm example:math`, `example:model`, the echo app) → where the test's do. */
export interface Ports {
  readonly math: string
  readonly model: string
  readonly echo?: string
}

/** A block as the docs write it, pointed at the test's servers instead of the docs' fixed ports. */
export const withPorts = (code: string, urls: Ports): string =>
  code
    .replaceAll("http://127.0.0.1:8000", urls.math)
    .replaceAll("http://127.0.0.1:8001", urls.model)
    .replaceAll("http://127.0.0.1:8002", urls.echo ?? "http://127.0.0.1:8002")
