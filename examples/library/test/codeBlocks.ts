import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type LoopbackPorts, moveLoopbackPorts, portsUsedIn } from "./loopbackPorts.js"
import { type CodeBlock, readmeBlocks } from "./readmeBlocks.js"

/**
 * Runs every code block of a Markdown file that claims to run, as the file says (see `readmeBlocks.ts` for the
 * markers): the README's and the docs site's. Blocks run from a scratch copy of the repository root made of
 * symlinks to what git tracks, so what they write (`runs/`, output files) lands there and never in the checkout
 * or in the user's own `runs/` and `.proctor/`; their fixed loopback ports are moved to free ones
 * (`loopbackPorts.ts`). A file's services are stopped after its last block.
 */
export const repo = fileURLToPath(new URL("../../..", import.meta.url))

const workspacePackages = () =>
  ["packages", "examples"].flatMap((group) =>
    readdirSync(join(repo, group))
      .map((name) => join(repo, group, name))
      .filter((dir) => existsSync(join(dir, "package.json")))
      .map((dir) => ({
        dir,
        name: (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string }).name,
      })),
  )

/** What the user owns at the root, never linked into the scratch root (used when git cannot list the tracked entries). */
const USER_OWNED = new Set(["runs", ".proctor", "node_modules", ".git"])

/** The root's entries that git tracks: not `runs/`, `.proctor/` or a `junit.xml` the user left there. */
const trackedRootEntries = (): ReadonlyArray<string> => {
  try {
    const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: repo, encoding: "utf8", stdio: "pipe" })
    const names = new Set(tracked.split("\0").flatMap((path) => (path === "" ? [] : [path.split("/")[0]!])))
    return [...names].filter((name) => existsSync(join(repo, name)))
  } catch {
    return readdirSync(repo).filter((name) => !USER_OWNED.has(name))
  }
}

/** The root's tracked entries as symlinks; node_modules rebuilt so `@proctor/*` resolves to the built packages. */
const makeScratchRoot = () => {
  const root = mkdtempSync(join(tmpdir(), "proctor-blocks-"))
  for (const entry of trackedRootEntries()) symlinkSync(join(repo, entry), join(root, entry))
  const modules = join(root, "node_modules")
  mkdirSync(join(modules, "@proctor"), { recursive: true })
  for (const entry of readdirSync(join(repo, "node_modules"))) {
    if (entry !== "@proctor") symlinkSync(join(repo, "node_modules", entry), join(modules, entry))
  }
  for (const { dir, name } of workspacePackages()) {
    if (name.startsWith("@proctor/")) symlinkSync(dir, join(modules, name))
  }
  return root
}

/**
 * Writes `content` at `path` (from the root) in the scratch root instead of the checkout's file it links to: each
 * folder on the way becomes a real folder of symlinks to the checkout's entries.
 */
const replaceInScratch = (root: string, path: string, content: string) => {
  let dir = root
  for (const segment of dirname(path)
    .split("/")
    .filter((s) => s !== "." && s !== "")) {
    const next = join(dir, segment)
    if (lstatSync(next).isSymbolicLink()) {
      const real = join(repo, relative(root, next))
      rmSync(next)
      mkdirSync(next)
      for (const entry of readdirSync(real)) symlinkSync(join(real, entry), join(next, entry))
    }
    dir = next
  }
  rmSync(join(root, path))
  writeFileSync(join(root, path), content)
}

/** Checkout files a block names (`examples/math/eval.toml`, `examples/library/dist/main.js`), from the root. */
const filesNamedIn = (code: string): ReadonlyArray<string> =>
  [...code.matchAll(/(?<![\w/.-])([\w@-][\w.@-]*(?:\/[\w.@-]+)+)/g)]
    .map((match) => match[1]!)
    .filter((path) => {
      const file = join(repo, path)
      return existsSync(file) && statSync(file).isFile()
    })

/**
 * `pnpm` as the docs say it. Where only `npx pnpm@10` works, npx's copy of pnpm is put on the PATH: found once,
 * it starts in half the time `npx` takes to find it again for every command.
 */
const pathWithPnpm = (root: string) => {
  try {
    execFileSync("pnpm", ["--version"], { stdio: "ignore" })
    return process.env.PATH ?? ""
  } catch {
    const bin = join(root, ".blocks-bin")
    mkdirSync(bin)
    const found = execFileSync("npx", ["-y", "-p", "pnpm@10", "which", "pnpm"], { encoding: "utf8" }).trim()
    symlinkSync(found, join(bin, "pnpm"))
    return `${bin}:${process.env.PATH ?? ""}`
  }
}

const stopGroup = (child: ChildProcess) => {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM")
  } catch {
    // Already gone.
  }
}

const titleOf = (file: string, block: CodeBlock) =>
  `${file}:${block.line} \`\`\`${block.language} ${block.mode}: ${block.code.split("\n")[0]?.slice(0, 70)}`

/** Declares one test per runnable block of `file` (a path from the repository root), in the file's order. */
export const describeCodeBlocks = (file: string): void => {
  const { blocks: written, problems } = readmeBlocks(readFileSync(join(repo, file), "utf8"), file)
  /** The blocks as they run: the file's, with its loopback ports moved (set before the first block runs). */
  let blocks: ReadonlyArray<CodeBlock> = written
  let scratch: string
  let env: NodeJS.ProcessEnv
  const services: Array<ChildProcess> = []
  let typeErrorsByBlock: ReadonlyMap<number, string> | undefined

  const spawnShell = (script: string) =>
    spawn("bash", ["-c", script], { cwd: scratch, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })

  const run = (script: string, timeoutMs: number) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawnShell(`set -euo pipefail\n${script}`)
      let output = ""
      child.stdout?.on("data", (chunk) => (output += chunk))
      child.stderr?.on("data", (chunk) => (output += chunk))
      const timer = setTimeout(() => {
        output += `\n[code block test: no exit within ${timeoutMs} ms]`
        stopGroup(child)
      }, timeoutMs)
      child.on("close", (code) => {
        clearTimeout(timer)
        resolve({ code, output })
      })
    })

  /** Starts a server and resolves once it says where it listens; rejects if it exits or stays silent. */
  const startService = (command: string, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const child = spawnShell(command)
      services.push(child)
      let output = ""
      const timer = setTimeout(
        () => reject(new Error(`${command}: not ready within ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      )
      const onData = (chunk: Buffer) => {
        output += chunk
        if (/listening|https?:\/\//i.test(output)) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout?.on("data", onData)
      child.stderr?.on("data", onData)
      child.on("exit", (code) => {
        clearTimeout(timer)
        reject(new Error(`${command}: exited (${code}) before it was ready:\n${output}`))
      })
    })

  const sourceOf = (block: CodeBlock) => join(scratch, `block-${block.line}.mts`)

  /** One program for all of the file's TypeScript blocks: checking them one by one would load the types each time. */
  const typeErrors = (block: CodeBlock): string => {
    if (typeErrorsByBlock === undefined) {
      const tsBlocks = blocks.filter((b) => b.language === "ts")
      for (const b of tsBlocks) writeFileSync(sourceOf(b), b.code)
      const base = ts.readConfigFile(join(repo, "tsconfig.base.json"), ts.sys.readFile).config
      const { options } = ts.parseJsonConfigFileContent(base, ts.sys, scratch)
      const program = ts.createProgram(tsBlocks.map(sourceOf), {
        ...options,
        noEmit: true,
        declaration: false,
        sourceMap: false,
      })
      const host = {
        getCanonicalFileName: (name: string) => name,
        getCurrentDirectory: () => scratch,
        getNewLine: () => "\n",
      }
      typeErrorsByBlock = new Map(
        tsBlocks.map((b) => [
          b.line,
          ts.formatDiagnostics(ts.getPreEmitDiagnostics(program, program.getSourceFile(sourceOf(b))), host),
        ]),
      )
    }
    return typeErrorsByBlock.get(block.line) ?? ""
  }

  const runTypeScript = async (block: CodeBlock) => {
    expect(typeErrors(block), `${file}:${block.line} does not compile`).toBe("")
    if (block.mode === "no-run") return
    const compiled = ts.transpileModule(block.code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText
    const script = join(scratch, `block-${block.line}.mjs`)
    writeFileSync(script, compiled)
    if (block.mode === "service") return startService(`node ${JSON.stringify(script)}`)
    const { code, output } = await run(`node ${JSON.stringify(script)}`, 120_000)
    expect(code, `${file}:${block.line} exited ${code}:\n${output}`).toBe(block.expectedExit)
  }

  const runShell = async (block: CodeBlock) => {
    if (block.mode === "service") {
      const commands = block.code.split("\n").filter((line) => line.trim() !== "" && !line.trim().startsWith("#"))
      for (const command of commands) await startService(command)
      return
    }
    const { code, output } = await run(block.code, 180_000)
    expect(code, `${file}:${block.line} exited ${code}:\n${output}`).toBe(block.expectedExit)
  }

  describe(`${file} code blocks`, () => {
    beforeAll(async () => {
      scratch = makeScratchRoot()
      env = { ...process.env, PATH: pathWithPnpm(scratch) }
      const named = [...new Set(written.flatMap((block) => filesNamedIn(block.code)))]
      const contents = new Map(named.map((path) => [path, readFileSync(join(repo, path), "utf8")]))
      const scripts = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).scripts as Record<string, string>
      const ports: LoopbackPorts = await moveLoopbackPorts(
        portsUsedIn([...written.map((block) => block.code), ...contents.values()]),
        scripts,
      )
      blocks = written.map((block) => ({ ...block, code: ports.rewrite(block.code) }))
      for (const [path, content] of contents) {
        const moved = ports.rewrite(content)
        if (moved !== content) replaceInScratch(scratch, path, moved)
      }
    })
    afterAll(async () => {
      await Promise.all(
        services.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve()
              child.once("exit", () => resolve())
              stopGroup(child)
            }),
        ),
      )
      rmSync(scratch, { recursive: true, force: true })
    })

    it("every shell block says whether it runs (run, service or no-run)", () => {
      expect(problems).toEqual([])
    })

    written.forEach((block, index) => {
      if (block.language === "sh" && block.mode === "no-run") return
      const run = () => {
        const moved = blocks[index]!
        return moved.language === "ts" ? runTypeScript(moved) : runShell(moved)
      }
      it(titleOf(file, block), run, 240_000)
    })
  })
}
