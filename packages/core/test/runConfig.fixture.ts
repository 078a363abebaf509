import { defaults, type EvalRunConfig } from "../src/EvalRunConfig.js"

/** A run config for tests: proctor's defaults, no keys and no policy; `overrides` set what a test is about. */
export const testRunConfig = (overrides: Partial<EvalRunConfig> = {}): EvalRunConfig => ({
  ...defaults,
  app_id: "test",
  task_app_url: "http://127.0.0.1:1",
  task_app_api_key: null,
  env_name: null,
  seeds: [0],
  model: null,
  provider: null,
  policy_name: null,
  policy_config: {},
  env_config: {},
  ops: null,
  ...overrides,
})
