import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { beforeAll } from "vitest"
import { ensureBuilt, repoRoot } from "./fixtures/harness.js"

interface Metafile {
  readonly inputs: Record<string, { readonly imports: ReadonlyArray<{ readonly path: string; readonly kind: string }> }>
  readonly outputs: Record<
    string,
    {
      readonly inputs: Record<string, unknown>
      readonly imports?: ReadonlyArray<{ readonly path: string; readonly kind: string; readonly external?: boolean }>
    }
  >
}

const readMetafile = (): Metafile =>
  JSON.parse(readFileSync(join(repoRoot, "packages/cli/dist/bundle-meta.json"), "utf8")) as Metafile

/** What each bundle of the built CLI holds (packages/cli/build.mjs writes it next to them). */
const bundledInputs = (output: string): ReadonlyArray<string> => {
  const inputs = readMetafile().outputs[output]?.inputs
  if (inputs === undefined) throw new Error(`${output} is not among the CLI's bundles`)
  return Object.keys(inputs)
}

beforeAll(() => ensureBuilt())

/**
 * Loads one of the CLI's scripts as the CLI does, in a process of its own: whether V8 took its code cache (made by
 * the build with the Node that runs these tests; a refused cache leaves start-up compiling all it runs,
 * silently) and the type of its export `name`.
 */
const loadedScript = (script: string, name: string) => {
  const dist = join(repoRoot, "packages/cli/dist")
  expect(existsSync(join(dist, `${script}.cache`))).toBe(true)
  const probe = [
    `const { loadScript } = await import(${JSON.stringify(pathToFileURL(join(dist, "internal/loadScript.js")).href)})`,
    `const loaded = loadScript(new URL(${JSON.stringify(pathToFileURL(join(dist, script)).href)}))`,
    `console.log(JSON.stringify({ rejected: loaded.cacheRejected, exported: typeof loaded.exports[${JSON.stringify(name)}] }))`,
  ].join("\n")
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" }))
}

// Commands' implementations load with `import()` when they run; the entry and the program script it loads (and
// what they import statically) load on every command, `proctor --help` included.
describe("the CLI's entry bundle", () => {
  it("loads only the argument parser, the commands' declarations and the flag parsers, no Effect and no package's implementation", () => {
    const meta = readMetafile()
    const loaded = new Set<string>()
    const pending = ["dist/bin.cjs", "dist/program-script.js"]
    while (pending.length > 0) {
      const output = pending.pop()!
      if (loaded.has(output)) continue
      loaded.add(output)
      for (const i of meta.outputs[output]?.imports ?? []) {
        if (i.kind === "import-statement" && i.external !== true) pending.push(i.path)
      }
    }
    const inputs = Array.from(loaded).flatMap((output) => bundledInputs(output))
    expect(inputs.some((path) => path.endsWith("src/main.ts"))).toBe(true)
    expect(inputs.filter((path) => path.includes("node_modules/.pnpm/effect@"))).toEqual([])
    // The flag parsers the declarations give commander are core's one module of them (plain functions, no Effect).
    const implementation = inputs.filter((path) => /\.\.\/(core|report|server|viewer)\/src\//.test(path))
    expect(implementation.filter((path) => !path.endsWith("core/src/config/flagParsers.ts"))).toEqual([])
  })
})

// Through effect's index, each module's namespace object held all of its exports, and every effect module any
// command used was in the chunk every command loads: eval compiled ~920 KB of effect and fast-check.
describe("the script `proctor eval` runs (dist/eval-script.js)", () => {
  it("holds effect's modules, not its index, nor fast-check or effect modules that eval does not use", () => {
    const inputs = bundledInputs("dist/eval-script.js")
    expect(inputs.some((path) => path.endsWith("effect/dist/esm/Schema.js"))).toBe(true)
    expect(inputs.filter((path) => /effect\/dist\/esm\/index\.js$|\/fast-check\//.test(path))).toEqual([])
    expect(
      inputs.filter((path) => /effect\/dist\/esm\/(Cron|JSONSchema|Arbitrary|internal\/stm\/.*)\.js$/.test(path)),
    ).toEqual([])
  })

  // Building genai-prices' table took ~25 ms of every eval's start-up (core/src/pricing/internal/genaiPrices.ts):
  // the bundle initialises it when the first thing is priced, which an `import()` becomes in a script.
  it("reaches genai-prices' price table through an import() alone, so a run that prices nothing never builds it", () => {
    const { inputs } = readMetafile()
    const importers = Object.entries(inputs).flatMap(([importer, { imports }]) =>
      imports
        .filter((i) => i.path.endsWith("@pydantic/genai-prices/dist/index.js"))
        .map((i) => `${importer.replace(/^.*\/src\//, "")} (${i.kind})`),
    )
    expect(importers).toEqual(["pricing/internal/genaiPrices.ts (dynamic-import)"])
  })

  // Made by the build with the Node that runs these tests (build.mjs): a cache V8 refused would leave the eval
  // compiling all it ran at start-up, silently.
  it("comes with a code cache that this Node takes, and exports the command", () => {
    expect(loadedScript("eval-script.js", "runEval")).toEqual({ rejected: false, exported: "function" })
  })
})

describe("the program script every command starts with (dist/program-script.js)", () => {
  it("comes with a code cache that this Node takes, and exports main", () => {
    expect(loadedScript("program-script.js", "main")).toEqual({ rejected: false, exported: "function" })
  })
})

// loadScript reads them as Latin-1 (so V8 holds the eval script outside its heap): the same text only while ASCII.
describe("the scripts loadScript reads", () => {
  it.each(["eval-script.js", "program-script.js"])("are ASCII: %s", (script) => {
    const bytes = readFileSync(join(repoRoot, "packages/cli/dist", script))
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1)
  })
})

/** Every .ts file under a directory. */
const sourcesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join(dir, file))

// build.mjs leaves undici's HTTP/2 client out (loading it loaded node:http2 and node:tls on every thread that
// made a Pool); a Pool that could negotiate HTTP/2 would then fail on its first h2 connection.
describe("undici's HTTP/2 client", () => {
  it("is in no bundle, and no Pool of core's is given allowH2 or useH2c", () => {
    const { outputs } = readMetafile()
    const withH2 = Object.keys(outputs).filter((output) =>
      Object.keys(outputs[output]?.inputs ?? {}).some((path) => path.endsWith("undici/lib/dispatcher/client-h2.js")),
    )
    expect(withH2).toEqual([])
    const asking = sourcesUnder(join(repoRoot, "packages/core/src")).filter((file) =>
      /\b(allowH2|useH2c)\b/.test(readFileSync(file, "utf8")),
    )
    expect(asking).toEqual([])
  })
})
