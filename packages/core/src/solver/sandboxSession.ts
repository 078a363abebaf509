import { Cause, Effect, Exit } from "effect"
import type { ExecOptions, ExecResult, SandboxCommand, SandboxHandle } from "../sandbox/Sandbox.js"

/**
 * A rollout's sandbox for solvers written with Promises: the handle's methods, each run to a Promise that rejects
 * with the `SandboxError` itself (so a solver that lets it through makes the rollout a retried `sandbox` error).
 * `handle` is the Effect one, for solvers that use Effect.
 */
export interface SandboxSession {
  readonly id: string
  readonly runtime: SandboxHandle["runtime"]
  readonly workdir: string
  readonly exec: (command: SandboxCommand, options?: ExecOptions) => Promise<ExecResult>
  readonly copyIn: (hostPath: string, sandboxPath: string) => Promise<void>
  readonly copyOut: (sandboxPath: string, hostPath: string) => Promise<void>
  readonly writeFile: (sandboxPath: string, content: string | Uint8Array) => Promise<void>
  readonly readFile: (sandboxPath: string) => Promise<Uint8Array | null>
  readonly handle: SandboxHandle
}

const run = async <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

export const sandboxSession = (handle: SandboxHandle): SandboxSession => ({
  id: handle.id,
  runtime: handle.runtime,
  workdir: handle.workdir,
  exec: (command, options) => run(handle.exec(command, options)),
  copyIn: (hostPath, sandboxPath) => run(handle.copyIn(hostPath, sandboxPath)),
  copyOut: (sandboxPath, hostPath) => run(handle.copyOut(sandboxPath, hostPath)),
  writeFile: (sandboxPath, content) => run(handle.writeFile(sandboxPath, content)),
  readFile: (sandboxPath) => run(handle.readFile(sandboxPath)),
  handle,
})
