import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { waitFor } from "@proctor/test-kit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Children, startServer } from "../src/children.js"
import { evalToml, writePrivateFile } from "../src/evalToml.js"
import { formatRecap } from "../src/recap.js"
import { scrubSecret } from "../src/scrub.js"

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "proctor-demo-test-"))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const script = (name: string, source: string): string => {
  const path = join(dir, name)
  writeFileSync(path, source)
  return path
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const portClosed = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect({ host: hostname, port: Number(port) })
    socket.once("connect", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", () => resolve(true))
  })

describe("evalToml", () => {
  it("writes an [eval] table and its policy_config, quoting strings as TOML basic strings", () => {
    const text = evalToml({
      app_id: "math",
      url: "http://127.0.0.1:1",
      seeds: "0-249",
      model: 'we"ird\\name\n',
      concurrency: 16,
      policy_config: { inference_url: "http://127.0.0.1:2/v1", temperature: 0, "odd key": true },
    })
    expect(text).toContain('[eval]\napp_id = "math"\nurl = "http://127.0.0.1:1"\nseeds = "0-249"\n')
    expect(text).toContain('model = "we\\"ird\\\\name\\n"\nconcurrency = 16\n')
    expect(text).toContain(
      '[eval.policy_config]\ninference_url = "http://127.0.0.1:2/v1"\ntemperature = 0\n"odd key" = true\n',
    )
  })

  it("creates the config owner-only and never writes through an existing file", () => {
    const path = join(dir, "private.toml")
    writePrivateFile(path, "x = 1\n")
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(() => writePrivateFile(path, "y = 2\n")).toThrow()
  })
})

describe("scrubSecret", () => {
  it("replaces the secret, raw or JSON-escaped, in every file below a directory", () => {
    const root = join(dir, "run")
    mkdirSync(join(root, "traces"), { recursive: true })
    const secret = 'sk-test-"quoted"-123'
    writeFileSync(join(root, "config.json"), JSON.stringify({ policy_config: { api_key: secret } }))
    writeFileSync(join(root, "traces", "seed_0_trace.json"), `raw ${secret} raw`)
    writeFileSync(join(root, "summary.json"), "{}")
    const changed = scrubSecret(root, secret)
    expect(changed.sort()).toEqual([join(root, "config.json"), join(root, "traces", "seed_0_trace.json")])
    for (const file of changed) expect(readFileSync(file, "utf8")).not.toContain("sk-test")
    expect(JSON.parse(readFileSync(join(root, "config.json"), "utf8")).policy_config.api_key).toBe("[redacted]")
  })
})

describe("startServer", () => {
  const ok = () => new AbortController().signal

  it("resolves to the URL of the first `listening on` line and stops the server", async () => {
    const server = script(
      "ok.mjs",
      'console.log("booting"); console.log("thing listening on http://127.0.0.1:4321"); setInterval(() => {}, 1000)\n',
    )
    const children = new Children()
    const started = await startServer(children, {
      name: "thing",
      script: server,
      env: process.env,
      timeoutMs: 10_000,
      signal: ok(),
    })
    expect(started.url).toBe("http://127.0.0.1:4321")
    const pid = started.child.pid!
    await children.stopAll()
    expect(isAlive(pid)).toBe(false)
  })

  it("names a server that exits first, with its stderr", async () => {
    const crash = script("crash.mjs", 'console.error("cannot bind"); process.exit(3)\n')
    await expect(
      startServer(new Children(), {
        name: "crasher",
        script: crash,
        env: process.env,
        timeoutMs: 10_000,
        signal: ok(),
      }),
    ).rejects.toThrow(/crasher exited \(exit code 3\) before printing its URL; its stderr:\n\s+cannot bind/)
  })

  it("names a silent server after the timeout and stops it", async () => {
    const silent = script("silent.mjs", "setInterval(() => {}, 1000)\n")
    const children = new Children()
    await expect(
      startServer(children, { name: "mute", script: silent, env: process.env, timeoutMs: 300, signal: ok() }),
    ).rejects.toThrow("mute did not print its URL within 0.3 s")
    await children.stopAll()
  })

  it("gives up when aborted", async () => {
    const silent = script("silent2.mjs", "setInterval(() => {}, 1000)\n")
    const children = new Children()
    const abort = new AbortController()
    const starting = startServer(children, {
      name: "slow",
      script: silent,
      env: process.env,
      timeoutMs: 10_000,
      signal: abort.signal,
    })
    abort.abort()
    await expect(starting).rejects.toThrow("slow: interrupted while starting")
    await children.stopAll()
  })
})

describe("watchdog", () => {
  it("stops a child whose parent was killed with SIGKILL", async () => {
    const server = script(
      "forever.mjs",
      'console.log("forever listening on http://127.0.0.1:1"); setInterval(() => {}, 1000)\n',
    )
    // The parent imports the built module: a plain `node` child cannot load TypeScript.
    const built = fileURLToPath(new URL("../dist/children.js", import.meta.url))
    const parent = script(
      "parent.mjs",
      `import { Children, startServer } from ${JSON.stringify(built)}
const s = await startServer(new Children(), { name: "forever", script: ${JSON.stringify(server)}, env: process.env, timeoutMs: 10000, signal: new AbortController().signal })
console.log(s.child.pid)
setInterval(() => {}, 1000)
`,
    )
    const proc = spawn(process.execPath, [parent], { stdio: ["ignore", "pipe", "inherit"] })
    const childPid = await new Promise<number>((resolve) => proc.stdout.once("data", (d) => resolve(Number(String(d)))))
    expect(isAlive(childPid)).toBe(true)
    proc.kill("SIGKILL")
    await waitFor("the demo's child to exit", () => !isAlive(childPid), { timeoutMs: 8_000, everyMs: 50 })
  })
})

describe("formatRecap", () => {
  it("shows score ± CI half-width, errors, time and run directory per eval", () => {
    const text = formatRecap({
      model: "baseline",
      totalSeconds: 12.34,
      keyInPolicyConfig: false,
      outcomes: [
        {
          app: "math",
          kind: "task-app",
          usesModel: true,
          runDir: join(dir, "none"),
          wallSeconds: 5.2,
          failure: undefined,
          interrupted: false,
          summary: {
            completed: 250,
            planned: 250,
            ok: 248,
            errored: 2,
            missing: 0,
            is_valid: true,
            invalid_reasons: [],
            metrics: { count: 248, mean_score: 0.888, ci95: [0.8486, 0.9274] },
            errors_by_kind: { http_5xx: 2 },
            duration_s: 3.5,
          },
        },
      ],
    })
    expect(text).toContain("math   0.888 ± 0.039 (95% CI 0.849–0.927, n=248) · 2 errors (http_5xx 2) · 5.2 s")
    expect(text).toContain("total  12.3 s")
  })
})

describe("formatRecap's resume hint", () => {
  const runDirFor = () => {
    const runDir = mkdtempSync(join(tmpdir(), "proctor-demo-hint-"))
    writeFileSync(join(runDir, "config.json"), "{}")
    return runDir
  }
  const outcome = (app: string, kind: "task-app" | "agents", usesModel: boolean, runDir: string) =>
    ({
      app,
      kind,
      usesModel,
      runDir,
      wallSeconds: 1,
      failure: undefined,
      interrupted: false,
      summary: undefined,
    }) as const

  it("names servers to start and the --url/--inference-url overrides: the demo's own ports are gone", () => {
    const runDir = runDirFor()
    const text = formatRecap({
      model: "baseline",
      totalSeconds: 1,
      keyInPolicyConfig: false,
      outcomes: [outcome("math", "task-app", true, runDir)],
    })
    expect(text).toContain("PORT=8000 node examples/math/dist/main.js")
    expect(text).toContain("PORT=8001 node examples/baseline-model/dist/main.js")
    expect(text).toContain(
      `pnpm proctor eval --resume ${runDir} --url http://127.0.0.1:8000 --inference-url http://127.0.0.1:8001/v1 --retry-errors`,
    )
  })

  it("resumes agent runs without a task app, with the model only where the agent calls one", () => {
    const [oracle, builtin] = [runDirFor(), runDirFor()]
    const text = formatRecap({
      model: "baseline",
      totalSeconds: 1,
      keyInPolicyConfig: false,
      outcomes: [outcome("agents-oracle", "agents", false, oracle), outcome("agents-builtin", "agents", true, builtin)],
    })
    expect(text).toContain(`  pnpm proctor eval --resume ${oracle} --retry-errors\n`)
    expect(text).toContain(
      `  pnpm proctor eval --resume ${builtin} --inference-url http://127.0.0.1:8001/v1 --retry-errors\n`,
    )
    expect(text).toContain("PORT=8001 node examples/baseline-model/dist/main.js")
    expect(text).not.toContain("examples/agents-")
    expect(text).not.toContain("--url http://127.0.0.1:8000")
  })
})

describe("the demo, end to end", () => {
  it("runs the task-app and agent evals offline, exits 0 and leaves no server behind", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "proctor-demo-e2e-"))
    try {
      const main = fileURLToPath(new URL("../dist/main.js", import.meta.url))
      const env = { ...process.env }
      delete env.OPENAI_API_KEY
      const proc = spawn(process.execPath, [main], { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
      let out = ""
      proc.stdout.on("data", (d) => {
        out += String(d)
      })
      proc.stderr.resume()
      const code = await new Promise<number | null>((resolve) => proc.once("exit", resolve))
      expect(code, out.slice(-3000)).toBe(0)
      const recap = out.slice(out.indexOf("proctor demo: recap"))
      // Pass/fail scores: Wilson's interval, inside [0, 1] and not of zero width when all five passed.
      expect(recap).toMatch(/math +0\.\d+ \(95% CI 0\.\d+–0\.\d+, n=250\)/)
      expect(recap).toMatch(/intents +0\.\d+ \(95% CI 0\.\d+–0\.\d+, n=250\)/)
      expect(recap).toMatch(/agents-oracle +1\.00 \(95% CI 0\.57–1\.00, n=5\)/)
      expect(recap).toMatch(/agents-builtin +0\.40 \(95% CI 0\.12–0\.77, n=5\)/)
      const runs = readdirSync(join(cwd, "runs")).sort()
      expect(runs).toEqual([
        expect.stringMatching(/^demo-agents-builtin-\d{8}-\d{6}$/),
        expect.stringMatching(/^demo-agents-oracle-/),
        expect.stringMatching(/^demo-intents-\d{8}-\d{6}$/),
        expect.stringMatching(/^demo-math-/),
      ])
      for (const run of runs) {
        const document = JSON.parse(readFileSync(join(cwd, "runs", run, "results.json"), "utf8"))
        expect(document.results).toHaveLength(run.startsWith("demo-agents-") ? 5 : 250)
      }
      const urls = [...out.matchAll(/^ {2}(?:baseline model|math task app|intents task app) +(http:\S+)/gm)].map(
        (m) => m[1]!,
      )
      expect(urls).toHaveLength(3)
      for (const url of urls) expect(await portClosed(url)).toBe(true)
    } finally {
      rmSync(cwd, { recursive: true, force: true })
    }
  }, 120_000)
})
