/**
 * Redaction, end to end: a real `proctor eval` (the built CLI as a child process) against the math example
 * task app, with the policy's model reached through the embedded interceptor and an upstream key configured
 * — in the TOML (`[eval.policy_config] api_key`) and, in a second run, in `PROCTOR_UPSTREAM_API_KEY`.
 *
 * The upstream is a recording proxy in front of the baseline model: it proves the upstream key is used
 * (every call arrives with it) and, for one seed, answers 401 echoing the key back the way providers'
 * "Incorrect API key provided: …" errors do, so the error path is probed too. The task app records every
 * request it receives (a fastify hook). Then neither the upstream key nor the task-app key may appear in
 * any file the run wrote (run directory, traces dir, output files, anything under the working directory)
 * or on any line of stdout or stderr, and the task app must never have seen the upstream key.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { TaskApp } from "@proctor/task-app"
import {
  cleanEnv,
  ensureBuilt,
  filesUnder,
  killStrayClis,
  nonEmptyLines,
  repoRoot,
  runCli,
} from "./fixtures/harness.js"

const TASK_KEY = "sk-taskapp-k3y-5e1f0c9a7d"
const TOML_UPSTREAM_KEY = "sk-upstream-toml-b7c40e2f9a61"
const ENV_UPSTREAM_KEY = "sk-upstream-env-4d93a1c8e05f"
/** Its question is answered 401 with the key echoed back, to probe the error path. */
const POISONED_SEED = 3
const SEEDS = [0, 1, 2, 3, 4, 5]

interface MathModule {
  readonly createMathApp: (options: { apiKey: string; auth: "key" | "none" }) => TaskApp
  readonly problemForSeed: (seed: number) => { readonly question: string }
}

interface BaselineModule {
  readonly createBaselineModel: (options?: { latencyMs?: number }) => {
    readonly listen: () => Promise<{ readonly url: string; readonly close: () => Promise<void> }>
  }
}

interface UpstreamRequest {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

let tmp: string
let math: MathModule
const cleanups: Array<() => Promise<void>> = []
/** Everything the task app received: method, URL, headers and parsed body of each request. */
const appReceived: Array<string> = []
const rolloutPolicyConfigs: Array<Record<string, unknown>> = []
const upstreamReceived: Array<UpstreamRequest> = []
let appUrl = ""
let upstreamUrl = ""

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  )

const readBody = (req: NodeJS.ReadableStream) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

/** The poisoned seed's question as it appears inside a JSON request body. */
const poisonedNeedle = () => JSON.stringify(math.problemForSeed(POISONED_SEED).question).slice(1, -1)

/** A recording proxy in front of the baseline model; the poisoned seed's question gets a 401 echoing the key. */
const startRecordingUpstream = async (baselineUrl: string): Promise<string> => {
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req)
      upstreamReceived.push({ path: req.url ?? "", headers: req.headers, body })
      if (body.includes(poisonedNeedle())) {
        const key = (req.headers.authorization ?? "").replace(/^Bearer /, "")
        const error = {
          error: {
            message: `Incorrect API key provided: ${key}. You can find your API key at https://example.invalid/keys.`,
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        }
        res.writeHead(401, { "content-type": "application/json" })
        res.end(JSON.stringify(error))
        return
      }
      const path = (req.url ?? "/").replace(/^\/v1/, "")
      const answer = await fetch(`${baselineUrl}${path}`, {
        method: req.method ?? "POST",
        headers: { "content-type": "application/json" },
        body,
      })
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" })
      res.end(Buffer.from(await answer.arrayBuffer()))
    })().catch((error: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" })
      res.end(String(error))
    })
  })
  const url = await listen(server)
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return `${url}/v1`
}

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-redaction-"))
  const load = <A>(path: string) => import(pathToFileURL(join(repoRoot, path)).href) as Promise<A>
  math = await load<MathModule>("examples/math/dist/index.js")
  const { createBaselineModel } = await load<BaselineModule>("examples/baseline-model/dist/index.js")

  const baseline = await createBaselineModel({ latencyMs: 0 }).listen()
  cleanups.push(baseline.close)
  upstreamUrl = await startRecordingUpstream(baseline.url)

  const app = math.createMathApp({ apiKey: TASK_KEY, auth: "key" })
  app.app.addHook("preHandler", async (request) => {
    appReceived.push(
      `${request.method} ${request.url}\n${JSON.stringify(request.headers)}\n${JSON.stringify(request.body ?? null)}`,
    )
    if (request.url.startsWith("/rollout")) {
      const body = request.body as { policy?: { config?: Record<string, unknown> } } | undefined
      rolloutPolicyConfigs.push(body?.policy?.config ?? {})
    }
  })
  const running = await app.listen({ port: 0, host: "127.0.0.1" })
  cleanups.push(running.close)
  appUrl = running.url
}, 300_000)

afterAll(async () => {
  killStrayClis()
  for (const cleanup of cleanups.reverse()) await cleanup()
  rmSync(tmp, { recursive: true, force: true })
})

/** The CLI's environment: only the task-app key and what a case adds; no model key inherited from the shell. */
const envFor = (extra: Record<string, string>) => {
  const env = cleanEnv({ ENVIRONMENT_API_KEY: TASK_KEY, ...extra })
  for (const name of Object.keys(env)) {
    if (/_API_KEY$/.test(name) && !(name in extra) && name !== "ENVIRONMENT_API_KEY") delete env[name]
  }
  return env
}

/** The secret and its random tail alone, so a key printed with its prefix stripped is caught too. */
const needles = (key: string) => [key, key.slice(key.lastIndexOf("-") + 1)]

interface Case {
  readonly name: string
  /** The key the upstream must receive. */
  readonly upstreamKey: string
  readonly tomlApiKey: string | null
  readonly env: Record<string, string>
  readonly extraArgs: ReadonlyArray<string>
}

const CASES: ReadonlyArray<Case> = [
  {
    name: "upstream key in [eval.policy_config] api_key",
    upstreamKey: TOML_UPSTREAM_KEY,
    tomlApiKey: TOML_UPSTREAM_KEY,
    env: {},
    extraArgs: [],
  },
  {
    name: "upstream key in PROCTOR_UPSTREAM_API_KEY",
    upstreamKey: ENV_UPSTREAM_KEY,
    tomlApiKey: null,
    env: { PROCTOR_UPSTREAM_API_KEY: ENV_UPSTREAM_KEY },
    extraArgs: ["--json"],
  },
]

describe("secrets through the embedded interceptor", () => {
  CASES.forEach((c, index) => {
    it(`${c.name}: the upstream gets it; no file, no output line and not the task app ever see it`, async () => {
      const inputs = join(tmp, `inputs-${index}`)
      const work = join(tmp, `work-${index}`)
      mkdirSync(inputs, { recursive: true })
      mkdirSync(work, { recursive: true })
      const toml = join(inputs, "eval.toml")
      writeFileSync(
        toml,
        [
          "[eval]",
          'app_id = "math"',
          `url = "${appUrl}"`,
          `seeds = [${SEEDS.join(", ")}]`,
          'model = "gpt-4o-mini"',
          "concurrency = 3",
          "",
          "[eval.policy_config]",
          `inference_url = "${upstreamUrl}"`,
          "temperature = 0",
          ...(c.tomlApiKey === null ? [] : [`api_key = "${c.tomlApiKey}"`]),
          "",
        ].join("\n"),
      )
      const runDir = join(work, "run")
      const appBefore = appReceived.length
      const rolloutsBefore = rolloutPolicyConfigs.length
      const upstreamBefore = upstreamReceived.length

      const result = await runCli(
        [
          "eval",
          "--config",
          toml,
          "--run-dir",
          runDir,
          "--return-trace",
          "--traces-dir",
          join(work, "traces"),
          "--output-json",
          join(work, "out.json"),
          "--output-txt",
          join(work, "out.txt"),
          ...c.extraArgs,
        ],
        { env: envFor(c.env), cwd: work },
      )
      // The poisoned seed's every model call was refused, so it is an error (auth), not a score of 0; one error
      // in six makes the run invalid, which exits 1.
      expect(result.code, result.stderr).toBe(1)

      // The run went through the interceptor: the task app was handed a cid URL, never the key or the model's URL.
      // (A rollout retried after a system error would be sent again: at least one request per seed.)
      const configs = rolloutPolicyConfigs.slice(rolloutsBefore)
      expect(configs.length).toBeGreaterThanOrEqual(SEEDS.length)
      for (const config of configs) {
        expect(config).not.toHaveProperty("api_key")
        expect(String(config.inference_url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cid_[0-9a-f]+\/v1$/)
        expect(String(config.inference_url)).not.toContain(upstreamUrl)
      }

      // The upstream received every call, each with the configured key and never the task-app key.
      const upstream = upstreamReceived.slice(upstreamBefore)
      expect(upstream.length).toBeGreaterThanOrEqual(SEEDS.length)
      for (const request of upstream) {
        expect(request.headers.authorization).toBe(`Bearer ${c.upstreamKey}`)
        expect(JSON.stringify(request.headers) + request.body).not.toContain(TASK_KEY)
      }
      expect(upstream.some((r) => r.body.includes(poisonedNeedle()))).toBe(true)

      // Calls were recorded on the wire (tokens and the poisoned seed's 401), without the key.
      const calls = nonEmptyLines(join(runDir, "model_calls.jsonl")).map(
        (line) => JSON.parse(line) as { seed: number; status: number | null; error: string | null },
      )
      expect(calls.length).toBe(upstream.length)
      const rejected = calls.filter((call) => call.seed === POISONED_SEED)
      expect(rejected.map((call) => call.status)).toContain(401)
      expect(rejected.find((call) => call.status === 401)?.error).toMatch(/Incorrect API key provided: \[redacted\]/)
      const results = nonEmptyLines(join(runDir, "results.jsonl")).map(
        (line) => JSON.parse(line) as { seed: number; status: string; error_kind: string | null; error: string | null },
      )
      expect(results.filter((r) => r.status === "error").map((r) => [r.seed, r.error_kind])).toEqual([
        [POISONED_SEED, "auth"],
      ])
      expect(results.find((r) => r.seed === POISONED_SEED)?.error).toMatch(
        /no model call succeeded \(\d+ failed\); the upstream's last answer was 401: .*\[redacted\]/,
      )

      // Every file written, every output line: neither key, whole or as its random tail.
      const files = filesUnder(work)
      const names = files.map((file) => file.slice(work.length + 1)).sort()
      expect(names).toEqual(
        expect.arrayContaining([
          "out.json",
          "out.txt",
          "run/config.json",
          "run/model_calls.jsonl",
          "run/results.jsonl",
          "run/summary.json",
          // The errored rollout has no trace of its own; its calls are in model_calls.jsonl.
          ...SEEDS.filter((seed) => seed !== POISONED_SEED).map((seed) => `traces/seed_${seed}_trace.json`),
        ]),
      )
      expect(names.filter((name) => name.startsWith("run/traces/"))).toHaveLength(SEEDS.length - 1)
      const secrets = [...needles(c.upstreamKey), ...needles(TASK_KEY)]
      for (const file of files) {
        const text = readFileSync(file, "utf8")
        for (const secret of secrets) expect(text.includes(secret), `${secret} in ${file}`).toBe(false)
      }
      const lines = [...result.stdout.split("\n"), ...result.stderr.split("\n")]
      expect(lines.length).toBeGreaterThan(SEEDS.length)
      for (const line of lines) {
        for (const secret of secrets) expect(line.includes(secret), `${secret} on the line: ${line}`).toBe(false)
      }

      // The config on disk says a secret was left out rather than silently dropping it.
      const manifest = JSON.parse(readFileSync(join(runDir, "config.json"), "utf8"))
      expect(manifest.task_app_api_key_set).toBe(true)
      if (c.tomlApiKey !== null) expect(manifest.omitted_secrets).toContain("policy_config.api_key")

      // The task app was called (and with its own key), but never saw an upstream key.
      const received = appReceived.slice(appBefore)
      expect(received.filter((r) => r.startsWith("POST /rollout")).length).toBeGreaterThanOrEqual(SEEDS.length)
      expect(received.some((r) => r.includes(TASK_KEY))).toBe(true)
      for (const request of received) {
        for (const secret of [...needles(TOML_UPSTREAM_KEY), ...needles(ENV_UPSTREAM_KEY)]) {
          expect(request.includes(secret), `${secret} reached the task app: ${request.slice(0, 200)}`).toBe(false)
        }
      }
    })
  })
})
