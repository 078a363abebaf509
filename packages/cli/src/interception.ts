import {
  type ConfigError,
  type EvalRunConfig,
  type InterceptionOptions,
  Interceptor,
  localRateGate,
  type ModelRateLimitRule,
  Pricing,
  type PricingOverrides,
  policyUpstream,
  serveInterceptor,
} from "@proctor/core"
import { type InterceptorThreadOptions, startInterceptorWorker } from "@proctor/server/internal/interceptor-thread"
import { Effect, type Scope } from "effect"

export interface InterceptionSettings {
  /** `--no-intercept` turns it off. */
  readonly enabled: boolean
  /** Prices that override or extend proctor's table (a `--pricing` file, read and checked up front). */
  readonly pricingOverrides: PricingOverrides
  /** Limits of model upstreams (`--model-rate-limit`, `PROCTOR_MODEL_RATE_LIMITS`), held by the interceptor. */
  readonly modelRateLimits: ReadonlyArray<ModelRateLimitRule>
}

export interface EmbeddedInterception extends Omit<InterceptionOptions, "recordCalls"> {
  /** Where task apps reach the interceptor (`http://127.0.0.1:PORT`). */
  readonly url: string
}

/** How `proctor eval` runs its interceptor thread: on loopback, any free port, the thread's bundle (build.mjs). */
const threadOptions = (): InterceptorThreadOptions => ({
  host: "127.0.0.1",
  port: 0,
  // Found through this package's own exports, from whichever chunk this module lands in.
  entry: new URL(import.meta.resolve("@proctor/cli/interceptor-thread")),
})

/**
 * A run that never has two rollouts in flight (one rollout, or concurrency 1): while a rollout's model calls
 * go through the interceptor, the runner only waits for that rollout, so nothing on this thread delays the
 * proxy. Its own thread buys such a run nothing, and starting one (a second isolate that boots Node and loads
 * the interceptor and undici again) cost more CPU than the rest of a one-seed eval's interception.
 */
export const oneRolloutAtATime = (config: Pick<EvalRunConfig, "seeds" | "attempts" | "concurrency">): boolean =>
  Math.min(config.concurrency, config.seeds.length * config.attempts) <= 1

/**
 * Starts the embedded inference interceptor on loopback for the life of the scope, pointed at the policy's
 * model: on a thread of its own, so the runner's work never delays a model call, unless the run has one rollout
 * in flight at a time. None when turned off, or when the policy names no `inference_url` to route.
 */
export const embeddedInterception = (
  config: EvalRunConfig,
  env: Readonly<Record<string, string | undefined>>,
  settings: InterceptionSettings,
): Effect.Effect<EmbeddedInterception | undefined, ConfigError, Scope.Scope> =>
  Effect.gen(function* () {
    const upstream = settings.enabled ? policyUpstream(config, env) : null
    if (upstream === null) return undefined
    const { pricingOverrides, modelRateLimits } = settings
    if (oneRolloutAtATime(config)) {
      const interceptor = yield* Interceptor.make({
        priceCall: Pricing.make(pricingOverrides).costOf,
        rateGate: localRateGate({ limits: modelRateLimits }),
      })
      return { interceptor, upstream, url: yield* serveInterceptor(interceptor) }
    }
    const running = yield* Effect.acquireRelease(
      Effect.promise(() => startInterceptorWorker({ ...threadOptions(), pricingOverrides, modelRateLimits })),
      // Stopped, not waited for: every rollout has been closed and its calls received by now, so the results
      // print while the thread winds down; the thread, referenced, keeps the process until it has exited.
      (running) => Effect.sync(() => void running.stop()),
    )
    return { interceptor: running, upstream, url: running.url }
  })
