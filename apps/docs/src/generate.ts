import { writeFileSync } from "node:fs"
import { generatedPages } from "./generatedPages.js"

/** Writes the generated reference pages into `pages/` (the build runs this first, then TypeDoc, then VitePress). */
const pages = new URL("../pages/", import.meta.url)
for (const { path, render } of generatedPages()) writeFileSync(new URL(path, pages), render())
