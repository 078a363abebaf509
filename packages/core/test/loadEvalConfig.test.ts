import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Redacted } from "effect"
import { publicConfig } from "../src/config/EvalRunConfig.js"
import { type EvalFlags, loadEvalConfig, loadResumeSettings } from "../src/config/loadEvalConfig.js"
import { resolveModelEndpoint } from "../src/interceptor/ModelEndpoint.js"
import { configFromManifest } from "../src/store/RunDirectory.js"

const dir = mkdtempSync(join(tmpdir(), "proctor-config-"))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const failure = (effect: ReturnType<typeof loadEvalConfig>) =>
  Effect.map(Effect.flip(effect), (error) => ({ reason: error.reason, message: error.message }))

describe("loadEvalConfig", () => {
  it.effect("reads synth-ai's [eval] table, seed ranges and policy_config", () =>
    Effect.gen(function* () {
      const path = file(
        "ok.toml",
        `[eval]
app_id = "math"
url = "http://127.0.0.1:8000"
seeds = ["0-3", 10]
model = "gpt-4o-mini"
concurrency = 4
timeout = 30
[eval.policy_config]
inference_url = "http://127.0.0.1:9000/v1"
temperature = 0
[eval.env_config]
difficulty = "easy"
`,
      )
      const { config } = yield* loadEvalConfig({ configPath: path, env: {} })
      expect(config.seeds).toEqual([0, 1, 2, 3, 10])
      expect(config.policy_config).toEqual({
        inference_url: "http://127.0.0.1:9000/v1",
        temperature: 0,
        model: "gpt-4o-mini",
      })
      expect(config.env_config).toEqual({ difficulty: "easy" })
      expect([config.concurrency, config.timeout_s, config.task_app_api_key]).toEqual([4, 30, null])
    }),
  )

  it.effect("reads cluster_by and keeps it in the recorded config a resume rebuilds from", () =>
    Effect.gen(function* () {
      const path = file("cluster.toml", `[eval]\nurl = "http://h:1"\nseeds = "0-1"\ncluster_by = "passage"\n`)
      const { config } = yield* loadEvalConfig({ configPath: path, env: {} })
      expect(config.cluster_by).toBe("passage")
      const recorded = publicConfig(config)
      expect(recorded.cluster_by).toBe("passage")
      const manifest = { run_id: "r", created_at: "", config: recorded, task_app_api_key_set: false }
      expect(Either.getOrThrow(configFromManifest(manifest, undefined)).cluster_by).toBe("passage")
      // without the key, the recorded config keeps synth-ai's exact keys
      const plain = yield* loadEvalConfig({
        configPath: file("plain.toml", `url = "http://h:1"\nseeds = "0"\n`),
        env: {},
      })
      expect("cluster_by" in publicConfig(plain.config)).toBe(false)
      const empty = file("cluster-empty.toml", `url = "http://h:1"\nseeds = "0"\ncluster_by = " "\n`)
      expect((yield* failure(loadEvalConfig({ configPath: empty, env: {} }))).message).toContain("cluster_by")
    }),
  )

  it.effect("accepts top-level keys and task_app_url", () =>
    Effect.gen(function* () {
      const path = file("top.toml", `task_app_url = "http://h:1"\nseeds = "5-6"\n`)
      const { config } = yield* loadEvalConfig({ configPath: path, env: {} })
      expect([config.task_app_url, config.seeds]).toEqual(["http://h:1", [5, 6]])
    }),
  )

  it.effect("names every wrong key with its path and what was expected", () =>
    Effect.gen(function* () {
      const path = file(
        "bad.toml",
        `[eval]\nurl = "ftp://x"\nseeds = [1, "2-x"]\nconcurrency = 0\ntrace_format = "big"\npolicy_config = 3\n`,
      )
      const error = yield* failure(loadEvalConfig({ configPath: path, env: {} }))
      expect(error.reason).toBe("InvalidValue")
      expect(error.message).toContain(`${path}: eval.url: expected an http(s) URL`)
      expect(error.message).toContain(`eval.seeds: "2-x" is not a seed`)
      expect(error.message).toContain("eval.concurrency: expected a positive integer")
      expect(error.message).toContain('eval.trace_format: expected "compact" or "full" or "structured", got "big"')
      expect(error.message).toContain("eval.policy_config: expected a table")
    }),
  )

  it.effect("names flags by their flag name", () =>
    Effect.gen(function* () {
      const error = yield* failure(
        loadEvalConfig({ flags: { url: "http://h:1", seeds: "0-9", concurrency: 0 }, env: {} }),
      )
      expect(error.message).toContain("--concurrency:")
      const seeds = yield* failure(loadEvalConfig({ flags: { url: "http://h:1", seeds: "9-0" }, env: {} }))
      expect(seeds.message).toContain('--seeds: range "9-0" ends before it starts')
    }),
  )

  it.effect("reports TOML syntax errors, missing files and missing required keys", () =>
    Effect.gen(function* () {
      const syntax = yield* failure(loadEvalConfig({ configPath: file("syntax.toml", "[eval\nx="), env: {} }))
      expect(syntax.reason).toBe("TomlSyntax")
      const missingFile = yield* failure(loadEvalConfig({ configPath: join(dir, "nope.toml"), env: {} }))
      expect(missingFile.reason).toBe("FileNotFound")
      const noUrl = yield* failure(loadEvalConfig({ flags: { seeds: "1" }, env: {} }))
      expect(noUrl.message).toContain("no task app URL")
      const noSeeds = yield* failure(loadEvalConfig({ flags: { url: "http://h:1" }, env: {} }))
      expect(noSeeds.message).toContain("no seeds")
    }),
  )

  it.effect("flags override the file; the key comes from the env file over the environment", () =>
    Effect.gen(function* () {
      const path = file("base.toml", `[eval]\nurl = "http://a:1"\nseeds = [1]\nconcurrency = 2\n`)
      const envFile = file(".env", `# keys\nexport ENVIRONMENT_API_KEY="from-file"\nOTHER=1 # note\n`)
      const { config, env } = yield* loadEvalConfig({
        configPath: path,
        flags: { concurrency: 16, seeds: "3,4" },
        envFile,
        env: { ENVIRONMENT_API_KEY: "from-env" },
      })
      expect([config.concurrency, config.seeds]).toEqual([16, [3, 4]])
      expect(Redacted.value(config.task_app_api_key!)).toBe("from-file")
      expect(env.OTHER).toBe("1")
    }),
  )

  it.effect("a TOML syntax error keeps the parser's line, column and the caret under the spot", () =>
    Effect.gen(function* () {
      const path = file("caret.toml", `[eval]\nurl = "http://h:1"\nseeds = [0, 1\nconcurrency = 3\n`)
      const error = yield* failure(loadEvalConfig({ configPath: path, env: {} }))
      expect(error.reason).toBe("TomlSyntax")
      const [head, ...excerpt] = error.message.split("\n")
      expect(head).toBe(`${path}:4:1: not valid TOML: expected comma or end of structure`)
      expect(excerpt).toEqual(["3:  seeds = [0, 1", "4:  concurrency = 3", "    ^"])
    }),
  )

  it.effect("a flag's model endpoint is refused in proctor's words", () =>
    Effect.gen(function* () {
      const bad = (flags: EvalFlags) =>
        failure(loadEvalConfig({ flags: { url: "http://h:1", seeds: "0", ...flags }, env: {} }))
      expect((yield* bad({ inference_url: "localhost:8001" })).message).toBe(
        '--inference-url: expected an http(s) URL, got "localhost:8001"',
      )
      expect((yield* bad({ provider: "opnai" })).message).toMatch(
        /^--provider: expected one of openai, anthropic, .*got "opnai"$/,
      )
    }),
  )

  it.effect(
    "max_response_bytes: 16 MiB by default, a config key, a flag that wins, refused unless a positive integer",
    () =>
      Effect.gen(function* () {
        const base = { url: "http://127.0.0.1:8000", seeds: "0" }
        expect((yield* loadEvalConfig({ flags: base, env: {} })).config.max_response_bytes).toBe(16 * 1024 * 1024)
        const path = file("limit.toml", `[eval]\nmax_response_bytes = 1000\n`)
        const fromFile = yield* loadEvalConfig({ configPath: path, flags: base, env: {} })
        expect(fromFile.config.max_response_bytes).toBe(1000)
        const fromFlag = yield* loadEvalConfig({
          configPath: path,
          flags: { ...base, max_response_bytes: 2000 },
          env: {},
        })
        expect(fromFlag.config.max_response_bytes).toBe(2000)
        const bad = yield* failure(loadEvalConfig({ flags: { ...base, max_response_bytes: 0 }, env: {} }))
        expect(bad.message).toMatch(/--max-response-bytes/)
      }),
  )

  it.effect("agent limits: TOML keys, flags that win, none by default, bad values named by flag", () =>
    Effect.gen(function* () {
      const base = { url: "http://127.0.0.1:8000", seeds: "0" }
      const none = (yield* loadEvalConfig({ flags: base, env: {} })).config
      expect([none.max_turns, none.max_tokens, none.max_cost, none.agent_timeout_s, none.verifier_timeout_s]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ])
      const path = file(
        "agent-limits.toml",
        `[eval]\nmax_turns = 30\nmax_tokens = 200000\nmax_cost = 0.5\nagent_timeout = 600\nverifier_timeout = 120\n`,
      )
      const fromFile = (yield* loadEvalConfig({ configPath: path, flags: base, env: {} })).config
      expect(fromFile).toMatchObject({
        max_turns: 30,
        max_tokens: 200000,
        max_cost: 0.5,
        agent_timeout_s: 600,
        verifier_timeout_s: 120,
      })
      const flags = { ...base, max_turns: 5, max_cost: 0.01, agent_timeout: 30, verifier_timeout: 9 }
      const fromFlags = (yield* loadEvalConfig({ configPath: path, flags, env: {} })).config
      expect(fromFlags).toMatchObject({ max_turns: 5, max_tokens: 200000, max_cost: 0.01, agent_timeout_s: 30 })
      expect(fromFlags.verifier_timeout_s).toBe(9)
      const bad = yield* failure(loadEvalConfig({ flags: { ...base, max_turns: 0 }, env: {} }))
      expect(bad.message).toMatch(/^--max-turns: expected a positive integer/)
      const badCost = yield* failure(loadEvalConfig({ flags: { ...base, max_cost: -1 }, env: {} }))
      expect(badCost.message).toMatch(/^--max-cost: expected a positive number of USD/)
    }),
  )
})

describe("keys proctor does not read", () => {
  const load = (name: string, text: string, extra: { strict?: boolean } = {}) =>
    loadEvalConfig({
      configPath: file(name, text),
      env: {},
      ...(extra.strict === undefined ? {} : { flags: { strict: extra.strict } }),
    })
  const base = `[eval]\nurl = "http://h:1"\nseeds = [0]\n`

  it.effect("a misspelt key is a warning naming the key it most likely meant; the run keeps proctor's default", () =>
    Effect.gen(function* () {
      const typo = yield* load("typo.toml", `${base}concurrancy = 3\nattempt = 3\n`)
      expect(typo.warnings).toEqual([
        `${join(dir, "typo.toml")}: eval.concurrancy: unknown key — did you mean eval.concurrency?`,
        `${join(dir, "typo.toml")}: eval.attempt: unknown key — did you mean eval.attempts?`,
      ])
      expect([typo.config.concurrency, typo.config.attempts]).toEqual([8, 1])
      const farOff = yield* load("far.toml", `${base}colour = "blue"\n`)
      expect(farOff.warnings).toEqual([`${join(dir, "far.toml")}: eval.colour: unknown key`])
      const clean = yield* load("clean.toml", base)
      expect(clean.warnings).toEqual([])
    }),
  )

  it.effect("--strict or strict = true turns unknown keys into one error naming them all", () =>
    Effect.gen(function* () {
      const text = `${base}concurrancy = 3\nattempt = 3\n`
      const byFlag = yield* failure(load("strict-flag.toml", text, { strict: true }))
      const byKey = yield* failure(load("strict-key.toml", `${text}strict = true\n`))
      for (const error of [byFlag, byKey]) {
        expect(error.reason).toBe("InvalidValue")
        expect(error.message).toContain("eval.concurrancy: unknown key — did you mean eval.concurrency?")
        expect(error.message).toContain("eval.attempt: unknown key — did you mean eval.attempts?")
      }
      const allowed = yield* load("strict-off.toml", `${text}strict = true\n`, { strict: false })
      expect(allowed.warnings).toHaveLength(2)
    }),
  )

  it.effect("a policy key under [eval] is named with the table it belongs in, and is not used", () =>
    Effect.gen(function* () {
      const { warnings, config } = yield* load(
        "misplaced.toml",
        `${base}inference_url = "http://127.0.0.1:8001/v1"\ntemperature = 0\n`,
      )
      expect(warnings).toEqual([
        `${join(dir, "misplaced.toml")}: eval.inference_url: belongs in [eval.policy_config]`,
        `${join(dir, "misplaced.toml")}: eval.temperature: belongs in [eval.policy_config]`,
      ])
      expect(config.policy_config).toEqual({})
    }),
  )

  it.effect("an [evaluation] table holding the eval keys is named as the cause, not a missing URL", () =>
    Effect.gen(function* () {
      const path = file("evaluation.toml", `[evaluation]\nurl = "http://h:1"\nseeds = [0]\n`)
      const error = yield* failure(loadEvalConfig({ configPath: path, env: {} }))
      expect(error.message).toBe(
        `${path}: evaluation.url is not read: put it in the [eval] table itself, or pass --url`,
      )
      const withFlag = yield* loadEvalConfig({ configPath: path, flags: { url: "http://h:2", seeds: "1" }, env: {} })
      expect(withFlag.warnings).toEqual([
        `${path}: [evaluation]: not read; its keys url, seeds belong in [eval] — rename [evaluation] to [eval]`,
      ])
      // Keys written below the [eval.policy_config] header belong to that table: the same mistake, said the same way.
      const below = file("below.toml", `[eval]\nseeds = [0]\n[eval.policy_config]\nmodel = "m"\nurl = "http://h:1"\n`)
      expect((yield* failure(loadEvalConfig({ configPath: below, env: {} }))).message).toBe(
        `${below}: eval.policy_config.url is not read: put it in the [eval] table itself, or pass --url`,
      )
    }),
  )

  it.effect("synth-ai's keys proctor has no use for get a note, never an error; its renamed keys a warning", () =>
    Effect.gen(function* () {
      const path = file(
        "synth.toml",
        `url = "http://h:1"\n[eval]\nseeds = [0]\nurl = "http://h:1"\nmetadata = { difficulty = "easy" }\npoll_interval = 5\nmax_concurrent = 4\n[prompt_learning]\nx = 1\n`,
      )
      const { warnings } = yield* loadEvalConfig({ configPath: path, env: {} })
      expect(warnings).toEqual([
        `${path}: url: outside [eval]; a file with an [eval] table is read from that table only — move it there`,
        `${path}: eval.metadata: a synth-ai key proctor does not use (proctor does not filter tasks by metadata; every seed given runs)`,
        `${path}: eval.poll_interval: a synth-ai key proctor does not use (proctor follows jobs by events, not polling)`,
        `${path}: eval.max_concurrent: synth-ai's name for eval.concurrency, which proctor reads`,
      ])
      const strict = yield* failure(loadEvalConfig({ configPath: path, flags: { strict: true }, env: {} }))
      expect(strict.message).not.toContain("metadata")
      expect(strict.message).toContain("eval.max_concurrent")
    }),
  )

  it.effect("a resumed run reads the same file with the same warnings", () =>
    Effect.gen(function* () {
      const path = file("resume.toml", `${base}concurrancy = 3\n`)
      const { warnings } = yield* loadResumeSettings({ configPath: path, env: {} })
      expect(warnings).toEqual([`${path}: eval.concurrancy: unknown key — did you mean eval.concurrency?`])
    }),
  )
})

describe("the model endpoint", () => {
  const run = (flags: Record<string, string>, toml: string | null, env: Record<string, string> = {}) =>
    loadEvalConfig({
      flags: { url: "http://h:1", seeds: "0", ...flags },
      env,
      ...(toml === null ? {} : { configPath: file(`endpoint-${Math.random()}.toml`, toml) }),
    }).pipe(Effect.map(({ config }) => [config.policy_config.inference_url, config.provider]))
  const fileUrl = `[eval.policy_config]\ninference_url = "http://file:1/v1"\n`

  it.effect("a flag beats the file; within each, a URL beats a provider; OPENAI_BASE_URL comes last", () =>
    Effect.gen(function* () {
      const env = { OPENAI_BASE_URL: "http://env:1/v1" }
      expect(yield* run({ inference_url: "http://flag:1/v1", provider: "groq" }, fileUrl, env)).toEqual([
        "http://flag:1/v1",
        "groq",
      ])
      expect(yield* run({ provider: "groq" }, fileUrl, env)).toEqual(["https://api.groq.com/openai/v1", "groq"])
      expect(yield* run({}, `[eval]\nprovider = "groq"\n${fileUrl}`, env)).toEqual(["http://file:1/v1", "groq"])
      expect(yield* run({}, `[eval]\nprovider = "groq"\n`, env)).toEqual(["https://api.groq.com/openai/v1", "groq"])
      // synth-ai also puts the provider in policy_config.
      expect(yield* run({}, `[eval.policy_config]\nprovider = "anthropic"\n`)).toEqual([
        "https://api.anthropic.com/v1",
        "anthropic",
      ])
      expect(yield* run({}, null, env)).toEqual(["http://env:1/v1", "openai"])
      expect(yield* run({}, null)).toEqual([undefined, null])
    }),
  )

  it.effect("--provider openai honours OPENAI_BASE_URL, as OpenAI's SDKs do", () =>
    Effect.gen(function* () {
      expect(yield* run({ provider: "openai" }, null)).toEqual(["https://api.openai.com/v1", "openai"])
      expect(yield* run({ provider: "openai" }, null, { OPENAI_BASE_URL: "http://proxy:1/v1" })).toEqual([
        "http://proxy:1/v1",
        "openai",
      ])
    }),
  )

  it("a provider proctor does not know names no endpoint", () => {
    expect(resolveModelEndpoint({ fileProvider: "synth", env: {} })).toBeNull()
  })
})

describe("synth-ai's judges", () => {
  const load = (name: string, text: string) => loadEvalConfig({ configPath: file(name, text), env: {} })
  const base = `[eval]\nurl = "http://h:1"\nseeds = [0]\n`

  it.effect("[eval.judge] with a path, [eval.judge.NAME] tables and [[eval.judges]] become python graders", () =>
    Effect.gen(function* () {
      const single = yield* load(
        "judge.toml",
        `${base}[[eval.graders]]\ntype = "includes"\n[eval.judge]\npath = "judges.py"\ncallable = "score"\nrubric = "be brief"\n`,
      )
      expect(single.config.graders).toEqual([
        { type: "includes" },
        {
          type: "python",
          name: "judge1",
          file: "judges.py",
          function: "score",
          call: "payload",
          kwargs: { rubric: "be brief" },
        },
      ])
      expect(single.config.judge).toBeUndefined()
      expect(single.warnings).toEqual([
        `${join(dir, "judge.toml")}: synth-ai's judges judge1 run as python graders (call = "payload"): each score is its grade, and together they are verifier_score`,
      ])
      const named = yield* load(
        "named.toml",
        `${base}[eval.judge.brevity]\nmodule = "my_judges"\n[[eval.judges]]\nname = "exact"\npath = "exact.py"\nfunction = "grade_it"\n`,
      )
      expect(named.config.graders).toEqual([
        { type: "python", name: "brevity", module: "my_judges", function: "judge", call: "payload" },
        { type: "python", name: "exact", file: "exact.py", function: "grade_it", call: "payload" },
      ])
    }),
  )

  it.effect("proctor's own [eval.judge] (a judge model) is kept as it is, beside synth-ai's [[eval.judges]]", () =>
    Effect.gen(function* () {
      const both = yield* load(
        "both.toml",
        `${base}[eval.judge]\nmodel = "gpt-4o-mini"\nprovider = "openai"\n[[eval.judges]]\npath = "j.py"\n`,
      )
      expect(both.config.judge).toEqual({ model: "gpt-4o-mini", provider: "openai" })
      expect(both.config.graders).toEqual([
        { type: "python", name: "judge1", file: "j.py", function: "judge", call: "payload" },
      ])
    }),
  )

  it.effect("a judge with neither or both of module and path is one line naming it", () =>
    Effect.gen(function* () {
      const neither = yield* failure(load("neither.toml", `${base}[[eval.judges]]\ncallable = "j"\n`))
      expect(neither.message).toBe(`${join(dir, "neither.toml")}: eval.judges[0]: a judge needs module or path`)
      const both = yield* failure(load("two.toml", `${base}[eval.judge.x]\nmodule = "m"\npath = "p.py"\n`))
      expect(both.message).toBe(`${join(dir, "two.toml")}: eval.judge.x: a judge cannot set both module and path`)
      const notList = yield* failure(load("notlist.toml", `${base}judges = "j.py"\n`))
      expect(notList.message).toContain("eval.judges: expected a list of tables")
    }),
  )
})
