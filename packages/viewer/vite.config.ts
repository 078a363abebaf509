import { readFileSync, writeFileSync } from "node:fs"
import { defineConfig, type Plugin } from "vite"
import { viteSingleFile } from "vite-plugin-singlefile"

const OUT_DIR = new URL("./dist/", import.meta.url)

/**
 * The built page as a JS string module (dist/page.js): the CLI is one esbuild bundle, so the page must be
 * something it can bundle, not a file next to a module it no longer has.
 */
const pageModule = (): Plugin => ({
  name: "proctor-page-module",
  apply: "build",
  closeBundle() {
    const html = readFileSync(new URL("page/index.html", OUT_DIR), "utf8")
    writeFileSync(new URL("page.js", OUT_DIR), `export const PAGE_HTML = ${JSON.stringify(html)}\n`)
    writeFileSync(
      new URL("page.d.ts", OUT_DIR),
      "/** The viewer page, built. */\nexport declare const PAGE_HTML: string\n",
    )
  },
})

/**
 * The page as ONE self-contained HTML file (scripts and styles inlined by vite-plugin-singlefile): a report
 * file opens from disk with no network, and the servers send one response.
 */
export default defineConfig({
  root: "src/ui",
  base: "./",
  logLevel: "warn",
  plugins: [viteSingleFile({ removeViteModuleLoader: true }), pageModule()],
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "../../dist/page",
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
  },
})
