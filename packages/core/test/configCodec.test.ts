import { describe, expect, it } from "@effect/vitest"
import { Either, Redacted } from "effect"
import {
  configFromRecord,
  type EvalRunConfig,
  encodeRunConfig,
  publicConfig,
  secretsOf,
} from "../src/config/EvalRunConfig.js"

const config: EvalRunConfig = {
  app_id: "math",
  task_app_url: "http://127.0.0.1:8000",
  task_app_api_key: Redacted.make("task-key"),
  env_name: "math",
  seeds: [0, 1, 2],
  attempts: 2,
  concurrency: 8,
  timeout_s: 120,
  max_retries: 3,
  return_trace: false,
  trace_format: "compact",
  model: "gpt-4o-mini",
  provider: "openai",
  policy_name: "react",
  policy_config: { temperature: 0, api_key: "sk-secret" },
  env_config: { difficulty: "hard", password: "hunter2" },
  ops: null,
  pass_threshold: 1,
  cluster_by: "passage",
  max_response_bytes: 1024,
}

describe("the config codec", () => {
  it("writes config.json's form byte for byte as it always has: synth-ai's names, in order, without secrets", () => {
    expect(JSON.stringify(publicConfig(config))).toBe(
      JSON.stringify({
        app_id: "math",
        task_app_url: "http://127.0.0.1:8000",
        env_name: "math",
        seeds: [0, 1, 2],
        attempts: 2,
        concurrency: 8,
        timeout: 120,
        max_retries: 3,
        return_trace: false,
        trace_format: "compact",
        model: "gpt-4o-mini",
        provider: "openai",
        policy_name: "react",
        policy_config: { temperature: 0 },
        env_config: { difficulty: "hard" },
        ops: null,
        pass_threshold: 1,
        cluster_by: "passage",
        max_response_bytes: 1024,
      }),
    )
    const { cluster_by: _, ...unclustered } = config
    expect("cluster_by" in publicConfig(unclustered)).toBe(false)
  })

  it("reads a record back with the secrets it was stored without", () => {
    const back = Either.getOrThrow(configFromRecord(publicConfig(config), secretsOf(config)))
    expect({ ...back, task_app_api_key: null }).toEqual({ ...config, task_app_api_key: null })
    expect(back.task_app_api_key === null ? null : Redacted.value(back.task_app_api_key)).toBe("task-key")
    expect(secretsOf(config)).toEqual({
      task_app_api_key: "task-key",
      policy_config: config.policy_config,
      env_config: config.env_config,
    })
    expect(encodeRunConfig(config).task_app_api_key).toBe("task-key")
  })

  it("reads a record written before max_response_bytes existed, and without its key, as the old readers did", () => {
    const { max_response_bytes: _, ...older } = publicConfig(config)
    const back = Either.getOrThrow(configFromRecord(older, {}))
    expect(back.max_response_bytes).toBe(16 * 1024 * 1024)
    expect(back.task_app_api_key).toBeNull()
    expect(back.policy_config).toEqual({ temperature: 0 })
  })

  it("keeps a long seed list as it is rather than copying it", () => {
    const seeds = Array.from({ length: 100_000 }, (_, i) => i)
    const json = encodeRunConfig({ ...config, seeds })
    expect(json.seeds).toBe(seeds)
    expect(Either.getOrThrow(configFromRecord(publicConfig({ ...config, seeds }), {})).seeds).toBe(seeds)
  })

  it("names the wrong keys of a record without showing its values, secrets among them", () => {
    const wrong = configFromRecord({ ...publicConfig(config), attempts: 1.5 }, { policy_config: 7 as never })
    expect(wrong).toEqual(Either.left("wrong or missing attempts, policy_config"))
  })
})
