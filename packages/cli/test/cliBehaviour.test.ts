import { spawn, spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ContractStub, startContractStub } from "./fixtures/backendContractStub.js"
import {
  captured,
  cleanEnv,
  cliBin,
  ensureBuilt,
  killStrayClis,
  nonEmptyLines,
  repoRoot,
  runCli,
  startZeroTaskApp,
  type TestTaskApp,
} from "./fixtures/harness.js"

/** `proctor` as a user meets it: --version, closed pipes, usage errors, hints, the job-mode notice, start-up. */

const KEY = "sk-test-secret-cli-behaviour"
const JOBS_KEY = "pk_cli_behaviour_stub_key"
const STACK_FRAME = /^\s+at\s/m

let tmp: string
let app: TestTaskApp
let stub: ContractStub
/** A directory on the PATH with a `pnpm` that is `npx -y pnpm@10`, as a user with pnpm installed has one. */
let pnpmDir: string

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-cli-behaviour-"))
  app = await startZeroTaskApp({ apiKey: KEY })
  stub = await startContractStub({ keys: [JOBS_KEY], tickMs: 5 })
  pnpmDir = join(tmp, "pnpm-bin")
  mkdirSync(pnpmDir)
  writeFileSync(join(pnpmDir, "pnpm"), '#!/bin/sh\nexec npx -y pnpm@10 "$@"\n')
  chmodSync(join(pnpmDir, "pnpm"), 0o755)
}, 300_000)

afterAll(async () => {
  killStrayClis()
  await app.close()
  await stub.close()
  rmSync(tmp, { recursive: true, force: true })
})

/** The environment of a shell on a fresh checkout: no package-manager variables, no `proctor` on the PATH. */
const shellEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env = cleanEnv()
  for (const name of Object.keys(env)) if (/^npm_|^PROCTOR_/i.test(name)) delete env[name]
  return { ...env, ENVIRONMENT_API_KEY: KEY, ...extra }
}

/** Runs a printed command line as a user would: through the shell, from the same directory. */
const runPrinted = (commandLine: string, env: NodeJS.ProcessEnv) =>
  captured(spawn("sh", ["-c", commandLine], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] })).done

/** The CLI with one of its output pipes closed by the reader before anything is written to it. */
const runWithClosedPipe = (args: ReadonlyArray<string>, closed: "stdout" | "stderr") =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null; open: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...args], {
      cwd: repoRoot,
      env: shellEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    })
    child[closed].destroy()
    let open = ""
    child[closed === "stdout" ? "stderr" : "stdout"].setEncoding("utf8").on("data", (chunk: string) => {
      open += chunk
    })
    child.once("error", reject)
    child.once("close", (code, signal) => resolve({ code, signal, open }))
  })

const evalArgs = (runDir: string) => [
  "eval",
  "zero",
  "--url",
  app.url,
  "--seeds",
  "0-4",
  "--run-dir",
  runDir,
  "--no-intercept",
]

describe("proctor --version", () => {
  it("prints the version of the CLI's package.json, with --version and -V", async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, "packages/cli/package.json"), "utf8"))
    for (const flag of ["--version", "-V"]) {
      const result = await runCli([flag])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toBe(`${version}\n`)
    }
  })
})

describe("a reader that closes the pipe early", () => {
  it("closed stdout: the run finishes, its results are kept, exit 0 and no stack trace", async () => {
    const runDir = join(tmp, "closed-stdout")
    const result = await runWithClosedPipe(evalArgs(runDir), "stdout")
    expect(result.open).not.toMatch(STACK_FRAME)
    expect(result.open).not.toContain("EPIPE")
    expect(result.code, result.open).toBe(0)
    expect(nonEmptyLines(join(runDir, "results.jsonl"))).toHaveLength(5)
  })

  it("closed stderr: the run still finishes and prints its summary on stdout, exit 0", async () => {
    const runDir = join(tmp, "closed-stderr")
    const result = await runWithClosedPipe(evalArgs(runDir), "stderr")
    expect(result.code, result.open).toBe(0)
    expect(result.open).toContain(`run directory: ${runDir}`)
    expect(nonEmptyLines(join(runDir, "results.jsonl"))).toHaveLength(5)
  })

  it("closed stdout on --help: exit 0, nothing on stderr", async () => {
    const result = await runWithClosedPipe(["--help"], "stdout")
    expect(result.code).toBe(0)
    expect(result.open).toBe("")
  })
})

describe("usage errors", () => {
  it("an unknown option, extra arguments or an unknown command: one line that says where help is, exit 2", async () => {
    const cases = [
      { args: ["eval", "--bogus-flag"], says: "proctor eval: unknown option '--bogus-flag'", help: "eval --help" },
      { args: ["eval", "math", "extra"], says: "proctor eval: too many arguments", help: "eval --help" },
      { args: ["evaluate"], says: "proctor: unknown command 'evaluate'", help: "--help" },
      {
        args: ["jobs", "watch"],
        says: "proctor jobs watch: missing required argument 'id'",
        help: "jobs watch --help",
      },
    ]
    for (const { args, says, help } of cases) {
      const result = await runCli(args, { env: shellEnv() })
      expect(result.code, result.stderr).toBe(2)
      expect(result.stdout).toBe("")
      const lines = result.stderr.split("\n").filter((line) => line !== "")
      expect(lines, result.stderr).toHaveLength(1)
      expect(lines[0]).toContain(says)
      // The help it points to is a command that runs as printed.
      const pointer = /see `([^`]+)`$/.exec(lines[0] ?? "")?.[1] ?? ""
      expect(pointer).toMatch(new RegExp(`${help.replace(/-/g, "\\-")}$`))
      const helped = await runPrinted(pointer, shellEnv())
      expect(helped.code, helped.stderr).toBe(0)
      expect(helped.stdout).toMatch(/^Usage: proctor/)
    }
  }, 120_000)
})

/** Runs an eval into `runDir` twice; the second refuses and prints the resume command. */
const resumeHintOf = async (run: (args: ReadonlyArray<string>) => Promise<{ code: number | null; stderr: string }>) => {
  const runDir = mkdtempSync(join(tmp, "hint-"))
  const first = await run(evalArgs(runDir))
  expect(first.code, first.stderr).toBe(0)
  const second = await run(evalArgs(runDir))
  expect(second.code, second.stderr).toBe(2)
  const hint = /resume it with: (.+)$/m.exec(second.stderr)?.[1] ?? ""
  expect(hint, second.stderr).toMatch(/ eval --resume /)
  return hint
}

describe("hints print commands that run as printed", () => {
  it("started as `node packages/cli/dist/bin.cjs` (no proctor on the PATH): the hint is that command", async () => {
    const env = shellEnv()
    const hint = await resumeHintOf((args) => runCli(args, { env }))
    expect(hint).toMatch(/^node packages\/cli\/dist\/bin\.cjs eval --resume /)
    const resumed = await runPrinted(hint, env)
    expect(resumed.code, resumed.stderr).toBe(0)
  })

  it("started as `pnpm proctor` on a checkout: the hint is `pnpm proctor …`, and it runs", async () => {
    const env = shellEnv({ PATH: `${pnpmDir}:${process.env.PATH ?? ""}` })
    const viaPnpm = (args: ReadonlyArray<string>) => runPrinted(`pnpm proctor ${args.join(" ")}`, env)
    const hint = await resumeHintOf(viaPnpm)
    expect(hint).toMatch(/^pnpm proctor eval --resume /)
    const resumed = await runPrinted(hint, env)
    expect(resumed.code, resumed.stderr).toBe(0)
  }, 120_000)
})

describe("job server mode is never silent", () => {
  const firstLine = (stderr: string) => stderr.split("\n")[0]
  const args = ["eval", "zero", "--url", "http://127.0.0.1:9/", "--seeds", "0-1", "--no-intercept"]

  const cases = [
    {
      why: "PROCTOR_BACKEND_URL",
      extra: () => ({ env: { PROCTOR_BACKEND_URL: stub.url, PROCTOR_API_KEY: JOBS_KEY }, args: [] }),
      says: () => `running as a job on ${stub.url} (from PROCTOR_BACKEND_URL; unset it to run on this machine)`,
    },
    {
      why: "SYNTH_BASE_URL",
      extra: () => ({ env: { SYNTH_BASE_URL: stub.url, SYNTH_API_KEY: JOBS_KEY }, args: [] }),
      says: () => `running as a job on ${stub.url} (from SYNTH_BASE_URL; unset it to run on this machine)`,
    },
    {
      why: "--backend",
      extra: () => ({ env: { PROCTOR_API_KEY: JOBS_KEY }, args: ["--backend", stub.url] }),
      says: () => `running as a job on ${stub.url} (from --backend)`,
    },
  ]
  for (const { why, extra, says } of cases) {
    it(`the first line names the server and why: ${why}`, async () => {
      const { env, args: more } = extra()
      const result = await runCli([...args, ...more], { env: shellEnv(env), cwd: tmp })
      expect(result.code, result.stderr).toBe(0)
      expect(firstLine(result.stderr)).toBe(says())
    })
  }

  it("the first line names the server and why: backend_url in the config file", async () => {
    const toml = join(tmp, "backend.toml")
    writeFileSync(toml, `[eval]\nurl = "http://127.0.0.1:9/"\nseeds = [0]\nbackend_url = "${stub.url}"\n`)
    const result = await runCli(["eval", "--config", toml], { env: shellEnv({ PROCTOR_API_KEY: JOBS_KEY }), cwd: tmp })
    expect(result.code, result.stderr).toBe(0)
    expect(firstLine(result.stderr)).toBe(`running as a job on ${stub.url} (from backend_url in ${toml})`)
  })
})

describe("start-up loads only what the command needs", () => {
  /**
   * Every file module the process loads: ES modules through a resolve hook (Node's module.register), CommonJS
   * modules from require's cache as the process exits (a preload). Scripts loaded with node:vm are neither.
   */
  const modulesLoadedBy = (args: ReadonlyArray<string>) => {
    const dir = mkdtempSync(join(tmp, "loads-"))
    const esmLog = join(dir, "esm.txt")
    const cjsLog = join(dir, "cjs.txt")
    writeFileSync(esmLog, "")
    writeFileSync(
      join(dir, "hooks.mjs"),
      'import { appendFileSync } from "node:fs"\n' +
        "export async function resolve(specifier, context, next) {\n" +
        "  const result = await next(specifier, context)\n" +
        '  if (result.url.startsWith("file:")) appendFileSync(process.env.PROCTOR_ESM_LOG, result.url + "\\n")\n' +
        "  return result\n" +
        "}\n",
    )
    writeFileSync(
      join(dir, "register.mjs"),
      `import { register } from "node:module"\nregister(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)})\n`,
    )
    const preload = join(dir, "cjs.cjs")
    writeFileSync(
      preload,
      'process.on("exit", () => require("node:fs").writeFileSync(process.env.PROCTOR_CJS_LOG, ' +
        "Object.keys(require.cache).filter((f) => f !== __filename).join('\\n')))\n",
    )
    const hooks = ["--import", pathToFileURL(join(dir, "register.mjs")).href, "--require", preload]
    // Its exit code is not the point (`compare` alone is a usage error).
    spawnSync(process.execPath, [...hooks, cliBin, ...args], {
      env: { ...shellEnv(), PROCTOR_ESM_LOG: esmLog, PROCTOR_CJS_LOG: cjsLog },
      stdio: "ignore",
    })
    const lines = (file: string) =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "")
    // With a hook registered, Node resolves the entry itself through the ES module resolver too.
    return { esm: lines(esmLog).filter((url) => url !== pathToFileURL(cliBin).href), cjs: lines(cjsLog) }
  }

  it("--help, --version and `eval --help` load the CLI's CommonJS entry and no other module", () => {
    for (const args of [["--help"], ["--version"], ["eval", "--help"]]) {
      // bin.cjs prints help and the version from the build's answers (staticAnswers.test.ts), and loads main.ts
      // and commander as one script, not a module (dist/program-script.js); each command's code is an ES module
      // it imports on use, so none loads here, nor Node's ES module loader.
      expect(modulesLoadedBy(args), args.join(" ")).toEqual({ esm: [], cjs: [cliBin] })
    }
  })

  it("a command loads its code as ES modules on use: `compare` with no arguments loads only the usage error's", () => {
    const { esm } = modulesLoadedBy(["compare"])
    const loaded = esm.map((url) => relative(dirname(cliBin), fileURLToPath(url)))
    // Besides it, only chunks it shares with other commands (esbuild's module helpers, exit codes).
    expect(loaded.filter((file) => !file.startsWith("chunks/"))).toEqual(["lazy/invocation.js"])
  })
})
