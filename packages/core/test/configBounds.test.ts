import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import fc from "fast-check"
import { MAX_CONCURRENCY, MAX_ROLLOUTS, MAX_TIMEOUT_S } from "../src/config/EvalRunConfig.js"
import { type EvalFlags, loadEvalConfig, loadResumeSettings } from "../src/config/loadEvalConfig.js"

const dir = mkdtempSync(join(tmpdir(), "proctor-bounds-"))
let files = 0
const file = (text: string) => {
  const path = join(dir, `c${files++}.toml`)
  writeFileSync(path, text)
  return path
}

const failure = <A, E extends { readonly message: string }>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.flip(effect), (error) => error.message)

const base = { url: "http://127.0.0.1:9", seeds: "0-4" }

describe("config bounds (issue 9: one clear line for every bad input)", () => {
  it.effect("attempts × seeds beyond the stated maximum is refused, naming the maximum", () =>
    Effect.gen(function* () {
      // Was accepted, then crashed at plan time: "internal error: Invalid typed array length".
      const huge = yield* failure(loadEvalConfig({ flags: { ...base, attempts: 1000000000 }, env: {} }))
      expect(huge).toBe(`--attempts: expected a positive integer ≤ ${MAX_ROLLOUTS} (the most rollouts a run may plan)`)
      const product = yield* failure(loadEvalConfig({ flags: { ...base, seeds: "0-99999", attempts: 1000 }, env: {} }))
      expect(product).toBe(
        `100000 seeds × 1000 attempts is 100000000 rollouts: a run plans at most ${MAX_ROLLOUTS} (fewer --seeds or --attempts)`,
      )
      const inFile = file(`[eval]\nurl = "http://h:1"\nseeds = "0-999"\nattempts = 100000\n`)
      expect(yield* failure(loadEvalConfig({ configPath: inFile, env: {} }))).toContain("a run plans at most")
    }),
  )

  it.effect("policy_config's known keys are type-checked, unknown ones pass through", () =>
    Effect.gen(function* () {
      const bad = file(
        `[eval]\nurl = "http://h:1"\nseeds = [1]\n[eval.policy_config]\ninference_url = 12\ntemperature = "hot"\nmax_tokens = 0\n`,
      )
      const message = yield* failure(loadEvalConfig({ configPath: bad, env: {} }))
      expect(message.split("\n")).toEqual([
        `${bad}: eval.policy_config.inference_url: expected an http(s) URL, got number`,
        `${bad}: eval.policy_config.temperature: expected number, got "hot"`,
        `${bad}: eval.policy_config.max_tokens: expected a positive integer`,
      ])
      const notUrl = file(`url = "http://h:1"\nseeds = [1]\npolicy_config = { inference_url = "localhost:8001" }\n`)
      expect(yield* failure(loadEvalConfig({ configPath: notUrl, env: {} }))).toBe(
        `${notUrl}: policy_config.inference_url: expected an http(s) URL, got "localhost:8001"`,
      )
      const passThrough = file(
        `url = "http://h:1"\nseeds = [1]\n[policy_config]\ninference_url = "http://m:1/v1"\ntemperature = 0.2\nmax_completion_tokens = 64\nreasoning = { effort = "low" }\nstop = ["\\n"]\n`,
      )
      const { config } = yield* loadEvalConfig({ configPath: passThrough, env: {} })
      expect(config.policy_config).toEqual({
        inference_url: "http://m:1/v1",
        temperature: 0.2,
        max_completion_tokens: 64,
        reasoning: { effort: "low" },
        stop: ["\n"],
      })
    }),
  )

  it.effect("timeouts are finite and positive, and counts have upper bounds, in the file as on the command line", () =>
    Effect.gen(function* () {
      // TOML's `inf` was accepted and recorded as `"timeout": null`.
      const inf = file(`url = "http://h:1"\nseeds = [1]\ntimeout = inf\npass_threshold = nan\n`)
      expect((yield* failure(loadEvalConfig({ configPath: inf, env: {} }))).split("\n")).toEqual([
        `${inf}: timeout: expected a finite number of seconds > 0 and ≤ ${MAX_TIMEOUT_S} (a week)`,
        `${inf}: pass_threshold: expected a finite number`,
      ])
      const flagged = (flags: EvalFlags) => failure(loadEvalConfig({ flags: { ...base, ...flags }, env: {} }))
      expect(yield* flagged({ timeout: Number.POSITIVE_INFINITY })).toContain("--timeout: expected")
      // Past 2³¹ ms Node's timers fire at once.
      expect(yield* flagged({ timeout: 3000000 })).toContain(`≤ ${MAX_TIMEOUT_S}`)
      expect(yield* flagged({ concurrency: 1000000000 })).toBe(
        `--concurrency: expected a positive integer ≤ ${MAX_CONCURRENCY} (more only exhausts sockets)`,
      )
      expect(yield* flagged({ max_retries: 1000000 })).toBe("--max-retries: expected an integer from 0 to 100")
    }),
  )

  it.effect("a seed past 2^53 is refused instead of looping for ever", () =>
    Effect.gen(function* () {
      const message = yield* failure(
        loadEvalConfig({ flags: { ...base, seeds: "99999999999999999999-99999999999999999999" }, env: {} }),
      )
      expect(message).toContain("seeds are integers of at most 2^53 - 1")
    }),
  )
})

// ---- fuzz: any flags and any TOML text end in a config or a ConfigError, never a defect -------------------

/** Values as the CLI's flag parsers hand them over, and some no parser would (the decode must refuse them, not crash). */
const numberish = fc.constantFrom(
  0,
  1,
  -1,
  8,
  1e9,
  1000000000,
  1e20,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2.5,
  "5",
  true,
)
const seedSpec = fc.constantFrom("0-4", "0", "4-0", "1,5,10-12", "0-99999", "1-99999999999", "x", "-3--1", "")
const flagValue = fc.oneof(
  numberish,
  seedSpec,
  fc.string({ maxLength: 12 }),
  fc.constantFrom("http://127.0.0.1:9", "ftp://x", "openai", "nope"),
)
const flagKey = fc.constantFrom(
  "app_id",
  "url",
  "seeds",
  "model",
  "concurrency",
  "attempts",
  "max_retries",
  "timeout",
  "inference_url",
  "provider",
  "max_response_bytes",
  "traces_dir",
)
/** Mostly a runnable base with a few flags over it, so that values get past "no seeds" to their own checks. */
const flagsArbitrary: fc.Arbitrary<EvalFlags> = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(flagKey, flagValue), { maxLength: 3 }))
  .map(([withBase, pairs]) => ({ ...(withBase ? base : {}), ...Object.fromEntries(pairs) }) as EvalFlags)

const tomlScalar = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom("0", "-1", "1000000000", "99999999999999999999", "0x7fffffff", "inf", "-inf", "nan", "1e400"),
  fc.double().map((n) => (Number.isFinite(n) ? String(n) : "nan")),
  fc.constantFrom("true", "false", "1979-05-27T07:32:00Z", "07:32:00", '"http://127.0.0.1:9"', '"ftp://x"', '"0-4"'),
  fc.string({ maxLength: 10 }).map((s) => JSON.stringify(s)),
)
const tomlValue = fc.oneof(
  { weight: 4, arbitrary: tomlScalar },
  { weight: 1, arbitrary: fc.array(tomlScalar, { maxLength: 3 }).map((items) => `[${items.join(", ")}]`) },
  {
    weight: 1,
    arbitrary: fc.array(tomlScalar, { maxLength: 2 }).map((v) => `{ ${v.map((x, i) => `k${i} = ${x}`).join(", ")} }`),
  },
)
const evalKey = fc.constantFrom(
  "url",
  "task_app_url",
  "seeds",
  "concurrency",
  "attempts",
  "timeout",
  "max_retries",
  "pass_threshold",
  "model",
  "provider",
  "trace_format",
  "return_trace",
  "cluster_by",
  "max_response_bytes",
  "backend_url",
  "strict",
  "policy_config",
  "env_config",
  "ops",
  "unknown_key",
)
const policyKey = fc.constantFrom(
  "inference_url",
  "temperature",
  "max_tokens",
  "max_completion_tokens",
  "model",
  "api_key",
  "extra",
)
const lines = (key: fc.Arbitrary<string>) =>
  fc.array(fc.tuple(key, tomlValue), { maxLength: 6 }).map((pairs) => {
    // A key twice is a TOML error of its own; the fuzz wants the values to reach the Schema too.
    const unique = new Map(pairs)
    return [...unique].map(([k, v]) => `${k} = ${v}`).join("\n")
  })
const tomlDocument = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.boolean(), lines(evalKey), fc.option(lines(policyKey), { nil: null }))
      .map(([inTable, body, policy]) =>
        [
          inTable ? "[eval]" : "",
          body,
          policy === null ? "" : `[${inTable ? "eval." : ""}policy_config]\n${policy}`,
        ].join("\n"),
      ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
)

/** The run ends in a value or a ConfigError: a defect (a throw, a crash) would be an "internal error". */
const onlyConfigErrors = (exit: Exit.Exit<unknown, { readonly _tag: string; readonly message: string }>) => {
  if (Exit.isSuccess(exit)) return
  const failure = Cause.failureOption(exit.cause)
  expect(Option.isSome(failure), Cause.pretty(exit.cause)).toBe(true)
  if (Option.isSome(failure)) {
    expect(failure.value._tag).toBe("ConfigError")
    expect(failure.value.message).not.toMatch(/\n\s+at /)
  }
}

describe("config fuzz", () => {
  it("no flags and no TOML document reach anything but a config or a named ConfigError", async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(tomlDocument, { nil: null }), flagsArbitrary, async (toml, flags) => {
        const configPath = toml === null ? undefined : file(toml)
        const loaded = await Effect.runPromiseExit(loadEvalConfig({ configPath, flags, env: {} }))
        onlyConfigErrors(loaded)
        if (Exit.isSuccess(loaded)) {
          const { config } = loaded.value
          expect(Number.isFinite(config.timeout_s) && config.timeout_s > 0).toBe(true)
          expect(config.seeds.length * config.attempts).toBeLessThanOrEqual(MAX_ROLLOUTS)
          expect(config.concurrency).toBeLessThanOrEqual(MAX_CONCURRENCY)
          const inferenceUrl = config.policy_config.inference_url
          if (inferenceUrl !== undefined) expect(URL.canParse(String(inferenceUrl))).toBe(true)
        }
        onlyConfigErrors(await Effect.runPromiseExit(loadResumeSettings({ configPath, flags, env: {} })))
      }),
      { numRuns: 400 },
    )
  }, 60_000)
})
