import {
  type ConfigError,
  type EvalRunConfig,
  type InterceptionOptions,
  Interceptor,
  localRateGate,
  type ModelCall,
  type ModelRateLimitRule,
  Pricing,
  type PricingOverrides,
  policyUpstream,
  responseCacheDirOf,
  serveInterceptor,
} from "@proctor/core"
import { Effect, type Scope } from "effect"

export interface InterceptionSettings {
  /** `--no-intercept` turns it off. */
  readonly enabled: boolean
  /** Prices that override or extend proctor's table (a `--pricing` file, read and checked up front). */
  readonly pricingOverrides: PricingOverrides
  /** Limits of model upstreams (`--model-rate-limit`, `PROCTOR_MODEL_RATE_LIMITS`), held by the interceptor. */
  readonly modelRateLimits: ReadonlyArray<ModelRateLimitRule>
  /** Told of every recorded call (the OTLP export). */
  readonly onCall?: ((call: ModelCall) => void) | undefined
}

export interface EmbeddedInterception extends Omit<InterceptionOptions, "recordCalls"> {
  /** Where task apps reach the interceptor (`http://127.0.0.1:PORT`). */
  readonly url: string
}

/**
 * Starts the embedded inference interceptor on loopback for the life of the scope, pointed at the policy's
 * model, on this thread: the runner's own work per rollout is microseconds against a model call's milliseconds,
 * and a thread of its own cost more than it bought. Measured on the 2,000-prompt sum eval (bench/sum-eval), the
 * thread took ~20% more CPU and ~20 MB more memory (a second isolate compiling node:http and undici again, each
 * call's record serialised across), and rollouts were slower end to end, the thread hop included.
 * None when turned off, or when the policy names no `inference_url` to route.
 */
export const embeddedInterception = (
  config: EvalRunConfig,
  env: Readonly<Record<string, string | undefined>>,
  settings: InterceptionSettings,
): Effect.Effect<EmbeddedInterception | undefined, ConfigError, Scope.Scope> =>
  Effect.gen(function* () {
    const upstream = settings.enabled ? policyUpstream(config, env) : null
    if (upstream === null) return undefined
    const { pricingOverrides, modelRateLimits, onCall } = settings
    const pricing = yield* Pricing.make(pricingOverrides)
    const interceptor = yield* Interceptor.make({
      priceCall: pricing.costOf,
      rateGate: localRateGate({ limits: modelRateLimits }),
      onCall,
      cacheDir: responseCacheDirOf(config, env),
    })
    return { interceptor, upstream, url: yield* serveInterceptor(interceptor), priceTable: pricing.table() }
  })
