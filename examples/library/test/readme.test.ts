import { readdirSync } from "node:fs"
import { join, relative } from "node:path"
import { describeCodeBlocks, repo } from "./codeBlocks.js"

/** Markdown pages of the docs site, generated library API (TypeDoc) aside: it has no examples to run. */
const docsPages = (dir = join(repo, "apps/docs/pages")): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "api" ? [] : docsPages(path)
    return entry.name.endsWith(".md") ? [relative(repo, path)] : []
  })

// One file, so the README's and the pages' services (the examples on their usual ports) never run at once.
for (const file of ["README.md", ...[...docsPages()].sort()]) describeCodeBlocks(file)
