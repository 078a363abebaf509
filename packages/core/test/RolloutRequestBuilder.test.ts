import { describe, expect, it } from "@effect/vitest"
import { defaults, type EvalRunConfig } from "../src/config/EvalRunConfig.js"
import { buildRolloutRequest, encodeRolloutRequest, makeRolloutId } from "../src/taskApp/RolloutRequestBuilder.js"

const config: EvalRunConfig = {
  ...defaults,
  app_id: 'we"ird\u0000app',
  task_app_url: "http://127.0.0.1:1",
  task_app_api_key: null,
  env_name: "math",
  seeds: [0],
  model: "gpt-4o-mini",
  provider: null,
  policy_name: null,
  policy_config: { model: "gpt-4o-mini", inference_url: "http://m/v1", output_mode: "tool_calls", seed: 3 },
  env_config: { seed: 9, difficulty: "hard" },
  ops: ["agent", "env"],
}

describe("rollout requests", () => {
  it("sends synth-ai's superset, lifting output_mode out of the policy config", () => {
    const request = buildRolloutRequest(config, { seed: 7, attempt: 0 }, "math-seed-7-abcdef01")
    expect(request).toMatchObject({
      run_id: "math-seed-7-abcdef01",
      trace_correlation_id: "math-seed-7-abcdef01",
      env: { env_name: "math", config: { seed: 9, difficulty: "hard" }, seed: 7 },
      policy: { config: { model: "gpt-4o-mini", inference_url: "http://m/v1", seed: 3 }, output_mode: "tool_calls" },
      record: { trajectories: true, logprobs: false, value: false, return_trace: false, trace_format: "compact" },
      on_done: "reset",
      training_session_id: null,
      mode: "eval",
      ops: ["agent", "env"],
    })
    expect(request.policy.config).not.toHaveProperty("output_mode")
  })

  it("the encoded template is byte for byte what serialising the request gives", () => {
    const withKey = { ...config, policy_config: { api_key: "sk-upstream", ...config.policy_config } }
    const withoutUrl = { ...config, policy_config: { model: "gpt-4o-mini", api_key: "sk-upstream" } }
    for (const cfg of [config, withKey, withoutUrl]) {
      for (const inferenceUrl of [undefined, "http://127.0.0.1:9/cid_0123abcd/v1", 'http://h/"quoted"\\/v1']) {
        for (const seed of [0, 7, -3, 123456789]) {
          const rolloutId = makeRolloutId(cfg, seed)
          const key = { seed, attempt: 0 }
          const encoded = encodeRolloutRequest({
            config: cfg,
            key,
            rolloutId,
            ...(inferenceUrl ? { inferenceUrl } : {}),
          })
          expect(encoded).toBe(JSON.stringify(buildRolloutRequest(cfg, key, rolloutId, inferenceUrl)))
        }
      }
    }
  })

  it("a try routed through the interceptor sends its own inference_url and not the upstream key", () => {
    const withKey = { ...config, policy_config: { api_key: "sk-upstream", ...config.policy_config } }
    const routed = buildRolloutRequest(withKey, { seed: 1, attempt: 0 }, "id", "http://127.0.0.1:9/cid_1/v1")
    expect(routed.policy.config).toEqual({
      model: "gpt-4o-mini",
      inference_url: "http://127.0.0.1:9/cid_1/v1",
      seed: 3,
    })
    const direct = buildRolloutRequest(withKey, { seed: 1, attempt: 0 }, "id")
    expect(direct.policy.config).toMatchObject({ api_key: "sk-upstream", inference_url: "http://m/v1" })
  })

  it("makes synth-ai's run_id form", () => {
    expect(makeRolloutId({ ...config, app_id: "math" }, 12)).toMatch(/^math-seed-12-[0-9a-f]{8}$/)
  })
})
