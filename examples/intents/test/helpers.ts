import { createBaselineModel, type RunningBaselineModel } from "@proctor/example-baseline-model"
import { createIntentsApp, type IntentsAppOptions } from "../src/index.js"

export const API_KEY = "intents-test-key"

export interface Loopback {
  readonly model: RunningBaselineModel
  readonly taskApp: { readonly url: string; readonly close: () => Promise<void> }
  readonly close: () => Promise<void>
}

/** The baseline model and the intents app, both on loopback with free ports. */
export const startLoopback = async (options: IntentsAppOptions = {}): Promise<Loopback> => {
  const model = await createBaselineModel().listen()
  const taskApp = await createIntentsApp({ apiKey: API_KEY, ...options }).listen()
  return { model, taskApp, close: async () => void (await Promise.all([taskApp.close(), model.close()])) }
}

export const rolloutRequest = (seed: number, inferenceUrl: string, returnTrace = false) => ({
  run_id: `intents-seed-${seed}-0000abcd`,
  trace_correlation_id: `intents-seed-${seed}-0000abcd`,
  env: { env_name: "intents", config: {}, seed },
  policy: { policy_name: "baseline", config: { model: "baseline", inference_url: inferenceUrl, temperature: 0 } },
  record: { trajectories: true, logprobs: false, value: false, return_trace: returnTrace, trace_format: "structured" },
  on_done: "reset",
  mode: "eval",
})

export const postRollout = (taskAppUrl: string, body: unknown) =>
  fetch(`${taskAppUrl}/rollout`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": API_KEY },
    body: JSON.stringify(body),
  })
