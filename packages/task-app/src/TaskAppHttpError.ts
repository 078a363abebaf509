/** synth-ai's error body: FastAPI's `{"detail": …}` around `{"error": {code, message}}`. */
export const errorEnvelope = (code: string, message: string) => ({ detail: { error: { code, message } } })

/**
 * Thrown from a rollout handler to choose the HTTP answer. The status decides what proctor does with it:
 * 5xx and 429 are retried, other 4xx are recorded as the rollout's result.
 */
export class TaskAppHttpError extends Error {
  override readonly name = "TaskAppHttpError"
  readonly status: number
  readonly code: string
  readonly headers: Readonly<Record<string, string>>

  constructor(options: {
    readonly status: number
    readonly code: string
    readonly message: string
    readonly headers?: Readonly<Record<string, string>>
  }) {
    super(options.message)
    this.status = options.status
    this.code = options.code
    this.headers = options.headers ?? {}
  }
}
