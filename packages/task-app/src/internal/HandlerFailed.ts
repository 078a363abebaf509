/** A task app's own handler threw: a 500 named after the handler, with the thrown value kept as the cause. */
export class HandlerFailed extends Error {
  override readonly name = "HandlerFailed"
  readonly handler: string
  /** The caller had hung up: nobody reads the answer, and a handler stopping then is no failure to log. */
  readonly callerGone: boolean

  constructor(handler: string, description: string, cause: unknown, callerGone: boolean) {
    super(`the ${handler} handler threw ${description}`, { cause })
    this.handler = handler
    this.callerGone = callerGone
  }
}
