import { promiseOf } from "../internal/promiseOf.js"
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

export const sandboxSession = (handle: SandboxHandle): SandboxSession => ({
  id: handle.id,
  runtime: handle.runtime,
  workdir: handle.workdir,
  exec: (command, options) => promiseOf(handle.exec(command, options)),
  copyIn: (hostPath, sandboxPath) => promiseOf(handle.copyIn(hostPath, sandboxPath)),
  copyOut: (sandboxPath, hostPath) => promiseOf(handle.copyOut(sandboxPath, hostPath)),
  writeFile: (sandboxPath, content) => promiseOf(handle.writeFile(sandboxPath, content)),
  readFile: (sandboxPath) => promiseOf(handle.readFile(sandboxPath)),
  handle,
})
