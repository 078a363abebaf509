import { SandboxError } from "@proctor/core"
import { Effect } from "effect"
import { causeMessage } from "./causeMessage.js"
import { DockerApiError } from "./DockerApi.js"

type Reason = "BuildFailed" | "StartFailed" | "ExecFailed" | "CopyFailed"

/** The container is gone or stopped: whatever was asked of it, the sandbox died under it. */
export const containerGone = (cause: unknown): boolean =>
  cause instanceof DockerApiError &&
  ((cause.status === 404 && /no such container/i.test(cause.message)) ||
    (cause.status === 409 && /is not running|is paused|removal .*in progress|is restarting/i.test(cause.message)))

/** The daemon has no such image (removed while the runtime remembered it). */
export const imageMissing = (cause: unknown): boolean =>
  cause instanceof DockerApiError && cause.status === 404 && /no such image/i.test(cause.message)

export const sandboxError = (reason: Reason, what: string) => (cause: unknown) =>
  containerGone(cause)
    ? new SandboxError({ reason: "Died", message: `the container died (${what}): ${causeMessage(cause)}`, cause })
    : new SandboxError({ reason, message: `${what}: ${causeMessage(cause)}`, cause })

/** A daemon call as an Effect, interruptible through its abort signal, failing with a `SandboxError`. */
export const dockerCall = <A>(reason: Reason, what: string, call: (signal: AbortSignal) => Promise<A>) =>
  Effect.tryPromise({ try: call, catch: sandboxError(reason, what) })
