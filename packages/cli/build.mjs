// Bundles the CLI after `tsc` has emitted dist/ (types and the library's modules stay tsc's).
//
// Why: loaded as separate ESM files, `proctor --help` spent ~0.9 s resolving and compiling the several hundred
// modules of effect, @effect/platform, undici and fastify that every command imported. Bundled, each process
// compiles one tree-shaken file; commands loaded with `import()` become chunks that only their command loads
// (bench/startup measures it).
//
// dist/bin.cjs (the entry) and the lazy modules are bundles; shared code goes to dist/chunks/.
// `proctor eval` runs from dist/eval-script.js, one script with the V8 code cache beside it (see `evalScript`).
import { execFileSync } from "node:child_process"
import { chmodSync, existsSync, lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { build } from "esbuild"
import { effectModules } from "../../scripts/effectModules.mjs"

const dist = new URL("./dist/", import.meta.url)

/**
 * proctor's core uses one thing of undici, `Pool`, but undici's index (CommonJS, so not tree-shaken) loads and
 * runs all of it: fetch, web streams, WebSocket, the mock agent, caches (~300 KB more to compile at start-up).
 * Core's (and the sandbox package's) `import { Pool } from "undici"` gets the modules that define `Pool` and its request API instead. undici
 * is pinned by the workspace catalog; a version without these files fails this build, loudly.
 *
 * Nor its HTTP/2 client: undici's Client loads it, and with it node:http2 (and node:tls), on construction of
 * the first Pool, though it only runs on a connection that negotiated h2, which takes `allowH2` or `useH2c`
 * (both off by default). core's Pools set neither (test/bundle.test.ts holds them to it), so they never speak
 * HTTP/2; loading them cost a process that made a Pool 15 ms or more. A stub takes its place and fails loudly.
 */
const undiciPoolOnly = {
  name: "undici-pool-only",
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) =>
      args.importer.includes("/packages/core/src/") || args.importer.includes("/packages/sandbox/src/")
        ? { path: args.importer, namespace: "undici-pool-only" }
        : undefined,
    )
    build.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      args.importer.endsWith("/undici/lib/dispatcher/client.js")
        ? { path: args.path, namespace: "no-http2" }
        : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: "no-http2" }, () => ({
      contents:
        'module.exports = () => { throw new Error("proctor\'s bundle has no HTTP/2 client (see packages/cli/build.mjs)") }',
      loader: "js",
    }))
    build.onLoad({ filter: /.*/, namespace: "undici-pool-only" }, (args) => ({
      // As undici's index does: its request/stream/pipeline API is installed on every dispatcher's prototype.
      contents: [
        'import api from "undici/lib/api/index.js"',
        'import Dispatcher from "undici/lib/dispatcher/dispatcher.js"',
        'import Pool from "undici/lib/dispatcher/pool.js"',
        "Object.assign(Dispatcher.prototype, api)",
        "export { Pool }",
      ].join("\n"),
      resolveDir: args.path.slice(0, args.path.lastIndexOf("/")),
      loader: "js",
    }))
  },
}

/**
 * OpenTelemetry's OTLP exporter loads node:http and node:https with `import()`, which a script run by
 * src/internal/loadScript.ts (the eval script) cannot do: that `import()` is bundled as a `require` instead.
 */
const builtinDynamicImports = {
  name: "builtin-dynamic-imports",
  setup(build) {
    build.onResolve({ filter: /^(node:)?https?$/ }, (args) =>
      args.kind === "dynamic-import" ? { path: args.path, namespace: "builtin-require" } : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: "builtin-require" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)})`,
      loader: "js",
    }))
  },
}

rmSync(new URL("chunks/", dist), { recursive: true, force: true })
// V8 checks a code cache against its script's length, not its text: no cache outlives the script it was made for.
for (const cache of ["eval-script.js.cache", "program-script.js.cache"]) rmSync(new URL(cache, dist), { force: true })
rmSync(new URL("lazy/", dist), { recursive: true, force: true })
// tsc's ES module of the entry: dist/bin.cjs is the entry.
for (const file of ["bin.js", "bin.js.map"]) rmSync(new URL(file, dist), { force: true })

const common = {
  absWorkingDir: new URL(".", import.meta.url).pathname,
  outdir: "dist",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // The workspace's TypeScript sources, as the tests run them.
  conditions: ["source"],
  // Whitespace and syntax only: fewer bytes to scan, while names stay readable in profiles and stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: "linked",
  // A native addon and pg's optional native driver: loaded from node_modules when `proctor serve` needs them.
  external: ["better-sqlite3", "pg-native"],
  // CommonJS dependencies (commander, undici) call `require` for node's built-ins.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  plugins: [undiciPoolOnly, effectModules, builtinDynamicImports],
  allowOverwrite: true,
  logLevel: "warning",
  metafile: true,
}

/** A CommonJS bundle of ES module sources: what import.meta gives them, from the bundle's own path. */
const commonJs = {
  ...common,
  format: "cjs",
  define: { "import.meta.url": "__importMetaUrl", "import.meta.resolve": "__importMetaResolve" },
  inject: [new URL("src/internal/scriptImportMeta.ts", import.meta.url).pathname],
}

/** A CommonJS bundle wrapped as a function, loaded by src/internal/loadScript.ts with a V8 code cache. */
const script = {
  ...commonJs,
  // ES modules are strict; so is what the bundle made of them.
  banner: { js: '(function (module, require, __filename, __import) {"use strict";' },
  footer: { js: "})" },
}

/**
 * `proctor eval` as one script (src/evalScript.ts; src/internal/loadScript.ts loads it): a CommonJS bundle
 * wrapped as a function, so it can be compiled with a V8 code cache, which Node 20 gives no ES module. The
 * cache is made after two evals have run the script (scripts/warmCodeCache.mjs): the code of its modules'
 * initialisation (effect's, the Schemas') and of a run is compiled and kept, so a one-seed eval parses and compiles
 * ~40% less (~16% fewer instructions in all), and a run no longer compiles its hot path at its first rollouts
 * (20,000 zero-work rollouts: 2.6% less wall time). V8 takes a cache only from the same V8 with the same flags, so
 * the CLI sets its own (tuneV8ForRuns) after loading the script; a cache refused (another Node, flags in
 * NODE_OPTIONS) costs only time: the script compiles as any script does.
 */
const evalScript = { ...script, entryPoints: { "eval-script": "src/evalScript.ts" } }

/**
 * The argument parser and every command's declaration (src/main.ts) as one script with its code cache, which
 * every command runs first: `proctor --help` compiled about half of what it ran beyond Node's own start-up.
 * What the commands `import()` when they run stays ES modules (dist/lazy/, built below): the
 * script imports them by those paths.
 */
const lazyModules = new Map()
const programScript = {
  ...script,
  entryPoints: { "program-script": "src/main.ts" },
  plugins: [
    ...common.plugins,
    {
      name: "lazy-modules",
      setup(build) {
        build.onResolve({ filter: /^\.\.?\// }, (args) => {
          if (args.kind !== "dynamic-import") return undefined
          const source = new URL(args.path.replace(/\.js$/, ".ts"), `file://${args.resolveDir}/`).pathname
          const name = `lazy/${source.slice(source.lastIndexOf("/") + 1, -".ts".length)}`
          if (lazyModules.has(name) && lazyModules.get(name) !== source)
            throw new Error(`two lazy modules named ${name}`)
          lazyModules.set(name, source)
          return { path: `./${name}.js`, external: true }
        })
      },
    },
  ],
}

// The script first: the lazy modules it names are entries of the ES module build.
const program = await build(programScript)
// A script has no `import()` of its own without vm's experimental loader: loadScript gives it `__import`.
const programScriptPath = new URL("program-script.js", dist)
const programSource = readFileSync(programScriptPath, "utf8")
const lazyImports = programSource.replaceAll('import("./lazy/', '__import("./lazy/')
if (/\bimport\(/.test(lazyImports)) throw new Error("program-script.js: an import() of something not in dist/lazy/")
writeFileSync(programScriptPath, lazyImports)
const [cli, bin, evalBundle] = await Promise.all([
  // What the commands load with `import()`, sharing chunks among themselves.
  build({
    ...common,
    entryPoints: Object.fromEntries(lazyModules),
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
  }),
  // CommonJS and alone: `proctor --help` starts no ES module loader (~15% of its instructions) and loads one file
  // besides the script, not chunks shared with the commands.
  build({ ...commonJs, entryPoints: { bin: "src/bin.ts" }, outExtension: { ".js": ".cjs" }, banner: {} }),
  build(evalScript),
])
/**
 * A script read as UTF-8 with one character outside ASCII becomes a two-byte string in V8: the eval script's 3.8 MB
 * were decoded into 7.6 MB of heap, and every stack trace's line numbers were computed over them (effect formats one
 * as it loads). esbuild escapes strings and identifiers but leaves regular expression literals as written (liquidjs'
 * and js-rouge's hold quotes and accented letters), so the scripts' last non-ASCII characters are escaped here, before
 * their code caches are made: `\uXXXX` means the same character in a regular expression, string or template, and a
 * backslash before the character (an identity escape, `\é`) is dropped with it. Columns after an escape on its line
 * are a few characters off in the source map (a handful of lines of vendored regular expressions). ASCII also lets
 * src/internal/loadScript.ts read them as Latin-1, the same text, which V8 then holds outside its heap.
 */
const escapeNonAscii = (file) => {
  const source = readFileSync(file, "utf8")
  let escaped = ""
  let from = 0
  for (let at = 0; at < source.length; at++) {
    const code = source.charCodeAt(at)
    if (code < 0x80) continue
    let backslashes = 0
    while (source[at - 1 - backslashes] === "\\") backslashes++
    escaped += source.slice(from, backslashes % 2 === 1 ? at - 1 : at) + `\\u${code.toString(16).padStart(4, "0")}`
    from = at + 1
  }
  if (from > 0) writeFileSync(file, escaped + source.slice(from))
}
for (const script of ["eval-script.js", "program-script.js"]) escapeNonAscii(new URL(script, dist))
const bundles = [program, cli, bin, evalBundle]
const metafile = {
  inputs: Object.assign({}, ...bundles.map((bundle) => bundle.metafile.inputs)),
  outputs: Object.assign({}, ...bundles.map((bundle) => bundle.metafile.outputs)),
}
// tsc has emitted the loader. The eval script's code cache is what two evals compiled, in a process of its own.
const { codeCacheOf, loadScript } = await import("./dist/internal/loadScript.js")
execFileSync(process.execPath, [new URL("scripts/warmCodeCache.mjs", import.meta.url).pathname], { stdio: "inherit" })
// A cache V8 refuses costs every eval its compile time, and says so nowhere: the build stops instead.
if (loadScript(new URL("eval-script.js", dist)).cacheRejected) {
  throw new Error("V8 refuses dist/eval-script.js.cache: scripts/warmCodeCache.mjs left a V8 flag off its default")
}
// The program's, made after parsing `--help` of the program and of each command: what every start-up runs
// (declaring the commands, parsing, writing help) is compiled and kept. What they print is kept too, in
// dist/static-answers.json (src/internal/staticAnswers.ts): the entry prints it without loading the program.
const loaded = loadScript(programScriptPath)
const { answerKey, STATIC_ANSWERS_FILE } = await import("./dist/internal/staticAnswers.js")
const commandsOf = (command) => [command, ...command.commands.flatMap(commandsOf)]
/** The words naming each command, `[]` for the program itself and `["jobs", "list"]` for a subcommand. */
const pathsOf = (command, path = []) => [path, ...command.commands.flatMap((c) => pathsOf(c, [...path, c.name()]))]
/** What the program writes to standard output for `argv`. */
const printed = async (argv) => {
  let text = ""
  const program = loaded.exports.createProgram(async () => {})
  const output = {
    writeOut: (chunk) => {
      text += chunk
    },
    writeErr: () => {},
    outputError: () => {},
  }
  for (const command of commandsOf(program)) command.configureOutput(output)
  await program.parseAsync(argv, { from: "user" }).catch(() => {})
  return text
}
const answers = {}
const asked = [
  ["--version"],
  ["-V"],
  ...pathsOf(loaded.exports.createProgram(async () => {})).flatMap((path) => [
    [...path, "--help"],
    [...path, "-h"],
  ]),
]
for (const argv of asked) answers[answerKey(argv)] = await printed(argv)
writeFileSync(new URL(STATIC_ANSWERS_FILE, dist), JSON.stringify(answers))
writeFileSync(codeCacheOf(programScriptPath), loaded.script.createCachedData())
// What each output holds and why it was included (https://esbuild.github.io/analyze/), for size work.
writeFileSync(new URL("bundle-meta.json", dist), JSON.stringify(metafile))
// An executable, as an installed `proctor` is: on a fresh clone the build runs after pnpm linked the bin, so
// pnpm's own chmod never saw this file.
chmodSync(new URL("bin.cjs", dist), 0o755)

// A checkout's `npx proctor` (the workspace root depends on this package): pnpm links a bin only if its file exists
// when it installs, and on a fresh clone that is before the first build. Linked here once, as pnpm would have.
const rootBins = new URL("../../node_modules/.bin/", import.meta.url)
const linked = (() => {
  try {
    return lstatSync(new URL("proctor", rootBins)) !== undefined
  } catch {
    return false
  }
})()
if (!linked && existsSync(rootBins) && existsSync(new URL("../../node_modules/proctor", import.meta.url))) {
  symlinkSync("../proctor/dist/bin.cjs", new URL("proctor", rootBins))
}
