const BRAND = Symbol.for("@proctor/core/RetryableError")

/**
 * Thrown by an `evaluate()` solver for a failure that says nothing about the model (a rate limit, a
 * dropped connection): the rollout is tried again with the runner's backoff, up to `maxRetries`, instead
 * of being recorded as an error. `retryAfterMs` is a floor for the wait, like a server's `Retry-After`.
 */
export class RetryableError extends Error {
  readonly [BRAND] = true
  readonly retryAfterMs: number | undefined

  constructor(message: string, options: { readonly retryAfterMs?: number; readonly cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = "RetryableError"
    this.retryAfterMs = options.retryAfterMs
  }

  /** Also true for one thrown by another copy of this package (the brand is global, `instanceof` is not). */
  static is(error: unknown): error is RetryableError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true
  }
}
