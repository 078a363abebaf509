// Bundles the SDK after `tsc` has emitted its declarations (dist/*.d.ts).
//
// Why: a task app is a small program its author installs with npm. Loaded as a package, the SDK pulled in
// @proctor/core and with it effect (34 MB on disk) for a schema decode and three helpers; bundled, esbuild
// keeps only what the SDK runs of them, and fastify is the one package a user installs with it. The public
// types are plain TypeScript over fastify's (TaskAppDefinition.ts), so the declarations need nothing else:
// this build fails if one of them, or the bundle, names a package the SDK does not declare.
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { builtinModules } from "node:module"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { effectModules } from "../../scripts/effectModules.mjs"

const dist = fileURLToPath(new URL("./dist/", import.meta.url))
/** What the SDK's users install with it: its package.json's dependencies. */
const runtimeDependencies = Object.keys(
  JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).dependencies,
)

const result = await build({
  absWorkingDir: fileURLToPath(new URL(".", import.meta.url)),
  entryPoints: ["src/index.ts"],
  outfile: "dist/index.js",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // The workspace's TypeScript sources, as the tests run them.
  conditions: ["source"],
  external: runtimeDependencies,
  plugins: [effectModules],
  metafile: true,
  logLevel: "warning",
})

const isBuiltin = (specifier) => specifier.startsWith("node:") || builtinModules.includes(specifier)
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/")
const undeclared = (specifiers) =>
  specifiers.filter(
    (specifier) =>
      !specifier.startsWith(".") && !isBuiltin(specifier) && !runtimeDependencies.includes(packageOf(specifier)),
  )

const bundled = undeclared(result.metafile.outputs["dist/index.js"].imports.map((i) => i.path))
if (bundled.length > 0) throw new Error(`dist/index.js loads ${bundled.join(", ")}: bundle it or declare it`)

/** What a declaration file imports or re-exports (`import type … from`, `export * from`, `import("…")`). */
const declarationImports = (file) =>
  [
    ...readFileSync(file, "utf8").matchAll(
      /^(?:import|export)\b[^"]*?\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm,
    ),
  ].map((match) => match[1] ?? match[2])

// The declarations users' TypeScript reads: those index.d.ts reaches. tsc emits one per source file, and the
// internal ones name core and effect, which a user does not install.
const reachable = new Set()
const visit = (file) => {
  if (reachable.has(file)) return
  reachable.add(file)
  for (const specifier of declarationImports(file).filter((specifier) => specifier.startsWith("."))) {
    visit(join(dirname(file), specifier.replace(/\.js$/, ".d.ts")))
  }
}
visit(join(dist, "index.d.ts"))
// Everything else goes too: what an earlier build left (tsc's modules, maps) is not the SDK.
const shipped = new Set([...reachable, join(dist, "index.js")])
const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  )
for (const file of files(dist)) if (!shipped.has(file)) rmSync(file)
for (const entry of readdirSync(dist, { withFileTypes: true })) {
  const dir = join(dist, entry.name)
  if (entry.isDirectory() && files(dir).length === 0) rmSync(dir, { recursive: true })
}
for (const file of reachable) {
  const named = undeclared(declarationImports(file))
  if (named.length > 0)
    throw new Error(`dist/${relative(dist, file)} names ${named.join(", ")}, which users do not install`)
}

const modules = Object.keys(result.metafile.inputs).length
const kilobytes = Math.round(result.metafile.outputs["dist/index.js"].bytes / 1024)
console.log(`dist/index.js: ${kilobytes} KB, bundled from ${modules} modules`)
