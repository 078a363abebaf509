import { Interceptor, type ModelRateGate, Pricing, type PricingOverrides } from "@proctor/core"
import { Effect, Layer, type Scope } from "effect"
import { ServerMetrics } from "../jobs/ServerMetrics.js"

export interface ServerInterceptorOptions {
  /** Overrides or additions to core's price table, for the interceptor's cost. */
  readonly pricingOverrides?: PricingOverrides | undefined
  /** Where its model calls wait their turn; default core's in-process gate (a cluster's workers share Redis's). */
  readonly rateGate?: Effect.Effect<ModelRateGate, never, Scope.Scope> | undefined
}

/**
 * The interceptor of a job server or a rollout worker: calls priced with the process's prices (`Pricing`, given
 * beside it so that a job's summary names them) and counted in its metrics.
 */
export const serverInterceptorLayer = (
  options: ServerInterceptorOptions,
): Layer.Layer<Interceptor | Pricing, never, ServerMetrics> =>
  Layer.scoped(
    Interceptor,
    Effect.gen(function* () {
      const metrics = yield* ServerMetrics
      const pricing = yield* Pricing
      const rateGate = options.rateGate === undefined ? undefined : yield* options.rateGate
      return yield* Interceptor.make({
        priceCall: pricing.costOf,
        onCall: (call) => metrics.modelCalls([call]),
        rateGate,
      })
    }),
  ).pipe(Layer.provideMerge(Pricing.layer(options.pricingOverrides ?? [])))
