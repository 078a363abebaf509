import { posix } from "node:path"
import { DEFAULT_SANDBOX_LIMITS, type SandboxCommand, type SandboxLimits } from "@proctor/core"

/** A sandbox path as an absolute one: relative paths are taken from the sandbox's workdir. */
export const absoluteIn = (workdir: string, path: string): string => posix.resolve(workdir, path)

/** The argv a command runs as: an argv as is, a shell line under `sh -c`. */
export const argvOf = (command: SandboxCommand): ReadonlyArray<string> =>
  typeof command === "string" ? ["sh", "-c", command] : command

/** A sandbox id that is also safe in a path and a label: 16 hex digits. */
export const newSandboxId = (): string => crypto.randomUUID().replaceAll("-", "").slice(0, 16)

export interface EffectiveLimits {
  readonly memoryMb: number
  readonly pids: number
  readonly cpus: number | undefined
}

/** The spec's limits with the defaults filling what it left out (memory and pids are always bounded). */
export const effectiveLimits = (limits: SandboxLimits | undefined): EffectiveLimits => ({
  memoryMb: limits?.memoryMb ?? DEFAULT_SANDBOX_LIMITS.memoryMb,
  pids: limits?.pids ?? DEFAULT_SANDBOX_LIMITS.pids,
  cpus: limits?.cpus,
})
