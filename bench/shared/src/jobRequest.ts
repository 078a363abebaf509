/**
 * The job-server request body the benches submit: `seeds` seeds (a list of integers, as synth-ai's client sends
 * them) against a task app that needs no key and a policy that calls no model.
 */
export const benchJobRequest = (taskAppUrl: string, seeds: number, maxConcurrent: number, timeoutS = 60) => ({
  task_app_url: taskAppUrl,
  task_app_api_key: null,
  app_id: "bench",
  env_name: "bench",
  seeds: Array.from({ length: seeds }, (_, i) => i),
  policy: { policy_name: "bench", model: "none" },
  env_config: {},
  mode: "eval",
  max_concurrent: maxConcurrent,
  timeout: timeoutS,
})
