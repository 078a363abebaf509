import {
  type ConfigError,
  type EvalRunConfig,
  type InterceptionOptions,
  Interceptor,
  loadPricingFile,
  Pricing,
  policyUpstream,
} from "@proctor/core"
import { Context, Effect, Layer, type Scope } from "effect"

export interface InterceptionSettings {
  /** `--no-intercept` turns it off. */
  readonly enabled: boolean
  /** A pricing file that overrides or extends proctor's table. */
  readonly pricingFile?: string | undefined
}

/**
 * Starts the embedded inference interceptor on loopback for the life of the scope, pointed at the policy's
 * model. None when turned off, or when the policy names no `inference_url` to route.
 */
export const embeddedInterception = (
  config: EvalRunConfig,
  env: Readonly<Record<string, string | undefined>>,
  settings: InterceptionSettings,
): Effect.Effect<Omit<InterceptionOptions, "recordCalls"> | undefined, ConfigError, Scope.Scope> =>
  Effect.gen(function* () {
    const upstream = settings.enabled ? policyUpstream(config, env) : null
    if (upstream === null) return undefined
    const overrides = settings.pricingFile === undefined ? [] : yield* loadPricingFile(settings.pricingFile)
    const pricing = Pricing.make(overrides)
    // Loaded here, not at startup: fastify is a large part of the CLI's start time and only this path needs it.
    const { InterceptorServerLayer } = yield* Effect.promise(() => import("@proctor/server"))
    const context = yield* Layer.build(
      InterceptorServerLayer({ host: "127.0.0.1", port: 0, priceCall: pricing.costOf }),
    )
    const interception: Omit<InterceptionOptions, "recordCalls"> = {
      interceptor: Context.get(context, Interceptor),
      upstream,
    }
    return interception
  })
