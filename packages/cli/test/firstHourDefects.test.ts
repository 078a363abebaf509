import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { EvalResult } from "@proctor/core"
import {
  cleanEnv,
  ensureBuilt,
  killStrayClis,
  nonEmptyLines,
  runCli,
  startExample,
  startZeroTaskApp,
  type TestTaskApp,
} from "./fixtures/harness.js"

/** The first-hour defects of issue 19, each through the built CLI against real servers on port 0. */

const KEY = "first-hour-key"
const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY })

let tmp: string
let math: Awaited<ReturnType<typeof startExample>>
let model: Awaited<ReturnType<typeof startExample>>
let app: TestTaskApp
const failing = new Set<number>()

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  )

/** A loopback port nothing listens on: bound, then closed. */
const closedPort = async () => {
  const server = createServer()
  const url = await listen(server)
  await new Promise((resolve) => server.close(resolve))
  return url
}

const rowsOf = (runDir: string) => nonEmptyLines(join(runDir, "results.jsonl")).map((l) => JSON.parse(l) as EvalResult)

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-first-hour-"))
  model = await startExample("examples/baseline-model/dist/main.js", cleanEnv())
  math = await startExample("examples/math/dist/main.js", env)
  app = await startZeroTaskApp({ apiKey: KEY, failSeeds: failing, score: (seed) => (seed % 3 === 0 ? 0 : 1) })
}, 300_000)

afterAll(async () => {
  killStrayClis()
  await Promise.all([math?.stop(), model?.stop(), app?.close()])
  rmSync(tmp, { recursive: true, force: true })
})

const mathEval = (args: ReadonlyArray<string>) =>
  runCli(["eval", "math", "--url", math.url, "--model", "baseline", ...args], { env })

describe("defect 1: every flag given with --resume applies or is refused", () => {
  it("--inference-url on resume replaces the stored endpoint", async () => {
    const runDir = join(tmp, "resume-inference")
    const second = await startExample("examples/baseline-model/dist/main.js", cleanEnv())
    try {
      const first = await mathEval(["--seeds", "0-5", "--inference-url", second.url, "--run-dir", runDir])
      expect(first.code, first.stderr).toBe(0)
      // Three rollouts lost, and the model the run started with gone.
      const journal = join(runDir, "results.jsonl")
      writeFileSync(journal, `${nonEmptyLines(journal).slice(0, 3).join("\n")}\n`)
    } finally {
      await second.stop()
    }
    const resumed = await runCli(
      ["eval", "--resume", runDir, "--inference-url", model.url, "--max-retries", "0", "--json"],
      { env },
    )
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain(`--inference-url is "${model.url}" from now on`)
    expect(rowsOf(runDir).every((row) => row.status === "ok")).toBe(true)
  })

  it("--run-dir with --resume is refused with its reason, exit 2, one line", async () => {
    const runDir = join(tmp, "resume-run-dir")
    const first = await mathEval(["--seeds", "0", "--inference-url", model.url, "--run-dir", runDir])
    expect(first.code, first.stderr).toBe(0)
    const resumed = await runCli(["eval", "--resume", runDir, "--run-dir", join(tmp, "elsewhere")], { env })
    expect(resumed.code).toBe(2)
    expect(resumed.stderr.trim().split("\n")).toHaveLength(1)
    expect(resumed.stderr).toContain("--run-dir")
  })
})

describe("defect 2: --retry-errors re-runs the errored rollouts of a run", () => {
  it("runs only the errored keys again, keeps the earlier tries in the journal and one row per key in the results", async () => {
    const runDir = join(tmp, "retry-errors")
    failing.add(4)
    failing.add(7)
    app.setPhase("retry:first")
    const first = await runCli(
      ["eval", "--url", app.url, "--seeds", "0-9", "--max-retries", "0", "--no-intercept", "--run-dir", runDir],
      { env },
    )
    expect(first.code).toBe(1)
    expect(rowsOf(runDir).filter((row) => row.status === "error")).toHaveLength(2)
    failing.clear()
    app.setPhase("retry:again")
    const out = join(tmp, "retry-errors.json")
    const again = await runCli(
      ["eval", "--resume", runDir, "--retry-errors", "--no-intercept", "--output-json", out, "--json"],
      { env },
    )
    expect(again.code, again.stderr).toBe(0)
    expect(
      app.started
        .filter((s) => s.phase === "retry:again")
        .map((s) => s.seed)
        .sort(),
    ).toEqual([4, 7])
    const journal = rowsOf(runDir)
    expect(journal).toHaveLength(12)
    expect(journal.filter((row) => row.status === "error").map((row) => row.seed)).toEqual([4, 7])
    const written = JSON.parse(readFileSync(out, "utf8")) as {
      results: Array<EvalResult>
      summary: { retried_errors: number; errored: number; completed: number }
    }
    expect(written.results).toHaveLength(10)
    expect(written.results.every((row) => row.status === "ok")).toBe(true)
    expect(written.summary).toMatchObject({ retried_errors: 2, errored: 0, completed: 10 })
    // A plain resume afterwards finds the run whole: the later try of each key wins.
    const plain = await runCli(["eval", "--resume", runDir, "--no-intercept", "--json"], { env })
    expect(plain.code, plain.stderr).toBe(0)
  })

  it("--retry-errors without --resume is a usage error", async () => {
    const result = await runCli(["eval", "--url", app.url, "--seeds", "0", "--retry-errors", "--no-intercept"], { env })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("--retry-errors works with --resume")
  })
})

describe("defect 4: the model endpoint and the task app are checked before the first rollout", () => {
  it("an unreachable model endpoint is exit 2 naming its address and the reason; no rollout starts", async () => {
    const dead = await closedPort()
    const result = await mathEval(["--seeds", "0-3", "--inference-url", dead, "--run-dir", join(tmp, "dead-model")])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`ECONNREFUSED ${new URL(dead).host}`)
    expect(result.stderr.trim().split("\n")).toHaveLength(1)
  })

  it("a --url that is not a task app (the model server) is named as such", async () => {
    const result = await runCli(
      ["eval", "math", "--url", model.url, "--seeds", "0", "--inference-url", model.url, "--model", "baseline"],
      { env },
    )
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`${model.url} is not a task app`)
  })

  it("an upstream failure keeps its reason in the error row", async () => {
    // Reachable for the check, then every chat call is cut: the reason must reach the row.
    const flaky = createServer((req, res) => {
      if (req.method === "POST") req.socket.destroy()
      else res.end("{}")
    })
    const url = await listen(flaky)
    try {
      const runDir = join(tmp, "upstream-reason")
      const result = await mathEval(["--seeds", "0", "--inference-url", url, "--max-retries", "0", "--run-dir", runDir])
      expect(result.code).toBe(1)
      const [row] = rowsOf(runDir)
      // The task app's code and message lead, and the interceptor's reason is kept whole at the end.
      expect(row?.error).toMatch(/^POST \/rollout answered 502: upstream_unavailable: model at .* answered 502: /)
      expect(row?.error).toContain(`upstream ${url} unreachable (UND_ERR_SOCKET)`)
    } finally {
      flaky.close()
    }
  })
})

describe("defect 5: messages a new user meets", () => {
  it("the terminal table's failures show wrong answers as well as errors", async () => {
    const result = await runCli(["eval", "--url", app.url, "--seeds", "0-40", "--no-intercept"], {
      env,
      cwd: tmp,
    })
    // Seed 21 scores 0 and lies between the first and the last five rows.
    expect(result.stdout).toMatch(/^\s*21\s+\|\s+0\s/m)
  })

  it("a missing task-app key and a wrong one give different messages", async () => {
    const args = ["eval", "--url", app.url, "--seeds", "0", "--no-intercept"]
    const missing = await runCli(args, { env: cleanEnv(), cwd: tmp })
    const wrong = await runCli(args, { env: cleanEnv({ ENVIRONMENT_API_KEY: "not-the-key" }), cwd: tmp })
    expect(missing.code).toBe(2)
    expect(wrong.code).toBe(2)
    expect(missing.stderr).toContain("no task-app key was given")
    expect(wrong.stderr).toContain("rejected the task-app API key")
    expect(missing.stderr).not.toEqual(wrong.stderr)
  })

  it("a config file that cannot be read is named by its full path, with the reason", async () => {
    const result = await runCli(["eval", "--config", "no-such-eval.toml"], { env, cwd: tmp })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(join(tmp, "no-such-eval.toml"))
    expect(result.stderr).toContain("ENOENT")
  })
})

describe("defect 6: local inputs are checked before anything is started or printed", () => {
  const expectFirstLine = (result: { code: number | null; stderr: string }, text: string) => {
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr.split("\n")[0]).toContain(text)
    expect(result.stderr).not.toContain("calls traced through")
  }

  it("a run directory that is a file", async () => {
    const file = join(tmp, "a-file")
    writeFileSync(file, "x")
    expectFirstLine(await mathEval(["--seeds", "0", "--inference-url", model.url, "--run-dir", file]), file)
  })

  it("an --output-json that cannot be written", async () => {
    // A file stands where its folder must be (missing folders are fine: the writers make them; and root may write
    // a read-only one).
    const blocker = join(tmp, "output-blocker")
    writeFileSync(blocker, "")
    const out = join(blocker, "out.json")
    const result = await mathEval(["--seeds", "0", "--inference-url", model.url, "--output-json", out])
    expectFirstLine(result, out)
  })

  it("a bad results.jsonl on resume", async () => {
    const runDir = join(tmp, "bad-journal")
    const first = await mathEval(["--seeds", "0-1", "--inference-url", model.url, "--run-dir", runDir])
    expect(first.code, first.stderr).toBe(0)
    writeFileSync(join(runDir, "results.jsonl"), "garbage\n")
    expectFirstLine(await runCli(["eval", "--resume", runDir], { env }), "results.jsonl line 1")
  })

  it("a config file of random bytes: its excerpt escapes what is not printable", async () => {
    const config = join(tmp, "random.toml")
    writeFileSync(config, Buffer.from([0x1b, 0x5b, 0x32, 0x4a, 0x07, 0x3d, 0x0d, 0x9b, 0x41, 0x0a]))
    const result = await runCli(["eval", "--config", config], { env })
    expect(result.code).toBe(2)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the test
    expect(result.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\x9b]/)
    expect(result.stderr).toContain("\\x1b")
  })
})
