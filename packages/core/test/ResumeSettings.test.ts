import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { testRunConfig } from "@proctor/test-kit"
import { Effect, Either } from "effect"
import { publicConfig } from "../src/config/EvalRunConfig.js"
import { type EvalFlags, loadResumeSettings } from "../src/config/loadEvalConfig.js"
import { applyResumeSettings, type ResumeSetting } from "../src/config/ResumeSettings.js"

const dir = mkdtempSync(join(tmpdir(), "proctor-resume-settings-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A run started from a config file with a policy table (the model copied into it) and a secret. */
const stored = publicConfig(
  testRunConfig({
    seeds: [0, 1, 2, 3],
    model: "m",
    policy_config: { model: "m", temperature: 0, api_key: "sk-policy-secret", nested: { token: "t", depth: 2 } },
  }),
)

const toml = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const settingsFrom = (configPath: string | undefined, flags: EvalFlags = {}) =>
  Effect.map(loadResumeSettings({ configPath, flags, env: {} }), (loaded) => loaded.settings)

const apply = (settings: ReadonlyArray<ResumeSetting>) => applyResumeSettings(stored, "runs/r", settings)

describe("applyResumeSettings", () => {
  it.effect("the config file a run started with passes again: secrets, the copied model and seed order aside", () =>
    Effect.gen(function* () {
      const path = toml(
        "same.toml",
        '[eval]\nseeds = [3, 2, 1, 0]\nmodel = "m"\n[eval.policy_config]\ntemperature = 0\napi_key = "sk-other"\nnested = { token = "u", depth = 2 }\n',
      )
      const applied = apply(yield* settingsFrom(path))
      expect(applied).toEqual(Either.right({ overrides: {}, inferenceUrl: null, changes: [] }))
    }),
  )

  it.effect("a changed policy value is refused, naming the key path and the file; no secret is in the message", () =>
    Effect.gen(function* () {
      const path = toml("hotter.toml", '[eval.policy_config]\ntemperature = 0.7\napi_key = "sk-policy-secret"\n')
      const applied = apply(yield* settingsFrom(path, { attempts: 2 }))
      expect(Either.isLeft(applied)).toBe(true)
      const message = Either.isLeft(applied) ? applied.left.message : ""
      expect(message).toContain(`policy_config in ${path} (policy_config.temperature) gives 0.7, the run has 0`)
      expect(message).toContain("--attempts gives 2, the run has 1")
      expect(message).not.toContain("sk-policy-secret")
    }),
  )

  it.effect("settings of how the run executes apply, flags over the file, and only changes are said", () =>
    Effect.gen(function* () {
      const path = toml("faster.toml", "[eval]\nconcurrency = 4\ntimeout = 300\nmax_retries = 5\n")
      const applied = apply(yield* settingsFrom(path, { concurrency: 16 }))
      expect(applied).toEqual(
        Either.right({
          overrides: { concurrency: 16, max_retries: 5 },
          inferenceUrl: null,
          changes: [
            "--concurrency is 16 from now on (the run started with 8)",
            `max_retries in ${path} is 5 from now on (the run started with 3)`,
          ],
        }),
      )
    }),
  )
})
