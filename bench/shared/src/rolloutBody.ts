export interface RolloutBodyOptions {
  readonly envName?: string
  readonly policyName?: string
  readonly policyConfig?: Readonly<Record<string, unknown>>
}

/**
 * The body `proctor eval` POSTs to /rollout (packages/core/src/taskApp/RolloutRequestBuilder.ts with no trace asked and
 * the default 300 s timeout), for bare loops to send what proctor sends. Imports nothing, so a bare loop that is
 * its own process can load it (`@proctor/bench-shared/rolloutBody`) without the rest of the harness.
 */
export const rolloutBody = (runId: string, seed: number, options: RolloutBodyOptions = {}): string =>
  JSON.stringify({
    run_id: runId,
    trace_correlation_id: runId,
    env: { env_name: options.envName ?? "default", config: {}, seed },
    policy: { policy_name: options.policyName ?? "policy", config: options.policyConfig ?? {} },
    record: { trajectories: true, logprobs: false, value: false, return_trace: false, trace_format: "compact" },
    on_done: "reset",
    safety: { max_ops: 100_000, max_time_s: 300 },
    training_session_id: null,
    synth_base_url: null,
    mode: "eval",
  })
