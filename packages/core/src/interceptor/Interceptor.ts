import type { IncomingMessage, ServerResponse } from "node:http"
import { Context, Effect, Layer, PubSub, type Redacted, type Scope } from "effect"
import type { ModelCall } from "../result/ModelCall.js"
import { InterceptorError } from "./InterceptorError.js"
import { DEFAULT_UPSTREAM_TIMEOUT_MS, InterceptorCore, type PriceCall } from "./internal/InterceptorCore.js"
import { localRateGate, type ModelRateGate } from "./ModelRateGate.js"

export type { PriceCall } from "./internal/InterceptorCore.js"

export interface InterceptorOptions {
  /**
   * The public URL task apps reach the interceptor at (`http://127.0.0.1:PORT`). Usually known only once
   * its server listens: leave it out and call `setBaseUrl` then (`serveInterceptor` does).
   */
  readonly baseUrl?: string | null | undefined
  /** Cost of one call in USD, null when unpriced. Defaults to "unpriced". */
  readonly priceCall?: PriceCall | undefined
  /** Called synchronously with every finished call, after it is recorded (for callers outside Effect). */
  readonly onCall?: ((call: ModelCall) => void) | undefined
  /** Deadline for upstream headers and for each gap between body chunks; default 10 minutes. */
  readonly upstreamTimeoutMs?: number | undefined
  /** Keep-alive connections per upstream origin; default unlimited (streams hold a connection each). */
  readonly connectionsPerOrigin?: number | null | undefined
  /**
   * Asked before every call is forwarded, told of every 429; the caller keeps it (and closes it). Default: an
   * in-process gate without configured limits (`localRateGate`).
   */
  readonly rateGate?: ModelRateGate | undefined
  /**
   * Answer identical requests from this response cache directory instead of the upstream (see `defaultCacheDir`);
   * off when absent. Many interceptors and processes may share one directory.
   */
  readonly cacheDir?: string | null | undefined
}

export interface InterceptorUpstream {
  /** The model's base URL (`https://api.openai.com/v1`, `http://127.0.0.1:8001/v1`, …). */
  readonly baseUrl: string
  /** Sent upstream instead of the task app's own credentials; never recorded. */
  readonly apiKey?: Redacted.Redacted<string> | null | undefined
  /** Recorded and priced as this provider; inferred from well-known hosts when absent. */
  readonly provider?: string | null | undefined
}

/** The limits the interceptor holds a rollout to, and the `code` of its refusal. */
export type InterceptedLimit = "max_turns" | "max_tokens" | "max_cost"

/**
 * A rollout's token and cost budget, read afresh at every call (a solver may set per-task limits after the rollout
 * opened). Once a call takes the rollout over it, or a call comes after it is spent, `reach` is told; calls after
 * that get an error answer (HTTP 400, `{"error":{"type":"proctor_limit","code":"max_tokens",…}}` in the API's shape).
 * `recordCall`, when given, is asked before each call is forwarded: false refuses it as one turn past `max_turns`
 * (for agents whose turns are their model calls, the command-line agents).
 */
export interface RolloutBudget {
  readonly settings: () => {
    readonly maxTokens: number | null
    readonly maxCost: number | null
    readonly maxTurns?: number | null
  }
  readonly reach: (limit: InterceptedLimit) => void
  readonly recordCall?: () => boolean
}

export interface InterceptorOpenOptions {
  readonly runId: string
  /** The rollout's own id (the `run_id` sent to the task app). */
  readonly rolloutId: string
  readonly seed: number
  readonly attempt: number
  readonly upstream: InterceptorUpstream
  readonly budget?: RolloutBudget | undefined
  /** A judge's calls (a model grader's, on the judge's own upstream): recorded with `role: "judge"` and the grader. */
  readonly judge?: { readonly grader: string } | undefined
}

export interface InterceptedRollout {
  /** `cid_` + 128 random bits: the capability that lets a task app reach the model through the interceptor. */
  readonly cid: string
  /** `${baseUrl}/${cid}/v1`, handed to the task app as the policy's `inference_url`. */
  readonly inferenceUrl: string
}

/**
 * What a runner needs of an interceptor: open a rollout's correlation id, and close it to take its calls.
 * Served by an `Interceptor`.
 */
export interface RolloutInterception {
  readonly open: (options: InterceptorOpenOptions) => Effect.Effect<InterceptedRollout, InterceptorError>
  /**
   * Ends a rollout and returns its calls in start order. Calls still in flight are aborted and recorded as
   * cancelled; the id answers 404 from now on. An unknown or already closed id gives no calls.
   */
  readonly close: (cid: string) => Effect.Effect<ReadonlyArray<ModelCall>>
  /** Every call as it finishes, where the holder publishes them (a live view shows what rollouts spend so far). */
  readonly calls?: PubSub.PubSub<ModelCall> | undefined
}

export interface InterceptorService extends RolloutInterception {
  /** Every finished call of every rollout (for `model_calls.jsonl`); nothing is kept when nobody subscribes. */
  readonly calls: PubSub.PubSub<ModelCall>
  /**
   * Serves one request under `/{cid}/v1/…` (or `?cid=`): `chat/completions`, `responses`, `messages`.
   * `body` is the raw request body; from fastify, call it after `reply.hijack()`.
   */
  readonly handle: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void
  readonly setBaseUrl: (url: string) => void
  readonly baseUrl: () => string | null
  /** Rollouts open now: flat when every opened rollout is closed. */
  readonly openRollouts: () => number
  /** Calls in flight now, across rollouts. */
  readonly inFlight: () => number
}

const unpriced: PriceCall = () => null

/**
 * The inference interceptor: every model call a task app makes during a rollout goes through it, is
 * forwarded to the real upstream over undici, streamed back as it arrives, and recorded as a `ModelCall`
 * (usage, cost, latency, time to first token, the reassembled answer). Serve `handle` from any node:http
 * server; `@proctor/server` has a fastify one.
 */
export class Interceptor extends Context.Tag("@proctor/core/Interceptor")<Interceptor, InterceptorService>() {
  static readonly make = (options: InterceptorOptions = {}): Effect.Effect<InterceptorService, never, Scope.Scope> =>
    Effect.gen(function* () {
      const calls = yield* Effect.acquireRelease(PubSub.unbounded<ModelCall>(), PubSub.shutdown)
      const onCall = options.onCall
      const core = yield* Effect.acquireRelease(
        Effect.sync(
          () =>
            new InterceptorCore({
              baseUrl: options.baseUrl ?? null,
              priceCall: options.priceCall ?? unpriced,
              // unsafeOffer: publishing from a node callback without running a fiber per call.
              publish: (call) => {
                calls.unsafeOffer(call)
                onCall?.(call)
              },
              upstreamTimeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
              connectionsPerOrigin: options.connectionsPerOrigin ?? null,
              rateGate: options.rateGate ?? localRateGate(),
              cacheDir: options.cacheDir ?? null,
            }),
        ),
        (core) => Effect.promise(() => core.shutdown()),
      )
      return {
        open: (request) =>
          Effect.suspend(() => {
            const opened = core.open(request)
            return opened instanceof InterceptorError ? Effect.fail(opened) : Effect.succeed(opened)
          }),
        close: (cid) => Effect.sync(() => core.close(cid)),
        calls,
        handle: (req, res, body) => core.handle(req, res, body),
        setBaseUrl: (url) => core.setBaseUrl(url),
        baseUrl: () => core.baseUrl(),
        openRollouts: () => core.openRollouts(),
        inFlight: () => core.inFlight(),
      } satisfies InterceptorService
    })

  static readonly layer = (options: InterceptorOptions = {}): Layer.Layer<Interceptor> =>
    Layer.scoped(Interceptor, Interceptor.make(options))
}
