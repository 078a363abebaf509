import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { defaults, type EvalRunConfig } from "../src/config/EvalRunConfig.js"
import { expandGridVariants, variantConfig } from "../src/grid/GridVariants.js"

const run: EvalRunConfig = {
  ...defaults,
  app_id: "rows",
  task_app_url: "dataset:rows.jsonl",
  task_app_api_key: null,
  env_name: null,
  seeds: [0, 1],
  model: null,
  provider: null,
  policy_name: null,
  policy_config: { inference_url: "http://127.0.0.1:8001/v1", temperature: 0 },
  env_config: {},
  ops: null,
  prompt: "{{ item.question }}",
}

describe("grid variants", () => {
  it("a table's endpoint goes with its models, and names the variants where the models alone do not", () => {
    const variants = Either.getOrThrow(
      expandGridVariants(run, [
        { model: ["small", "large"] },
        { model: "large", inference_url: "http://127.0.0.1:9000/v1" },
        { name: "remote", model: "large", inference_url: "http://127.0.0.1:9001/v1" },
      ]),
    )
    expect(variants.map((variant) => variant.name)).toEqual(["small+e1", "large+e1", "large+e2", "remote"])
    const own = variantConfig(run, variants[2]!)
    expect(own.policy_config).toEqual({ inference_url: "http://127.0.0.1:9000/v1", temperature: 0, model: "large" })
    expect(variantConfig(run, variants[0]!).policy_config.inference_url).toBe("http://127.0.0.1:8001/v1")
  })
})
