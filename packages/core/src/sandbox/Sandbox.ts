import { Context, type Effect, Schema, type Scope } from "effect"
import type { ErrorKind } from "../result/EvalResult.js"

/**
 * A command run in a sandbox: an argv (run as is) or a shell line (run with `sh -c`).
 * Shell lines are for task scripts and agents' `bash` tools; argv for everything proctor runs itself.
 */
export type SandboxCommand = ReadonlyArray<string> | string

export interface ExecOptions {
  /** Working directory inside the sandbox; default the sandbox's workdir. */
  readonly cwd?: string | undefined
  /** Added to the sandbox's environment for this command only. */
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Written to the command's stdin, which is then closed; without it stdin is empty (closed at once). */
  readonly stdin?: string | Uint8Array | undefined
  /** The command is killed after this long and the result says `timedOut`; default no limit. */
  readonly timeoutMs?: number | undefined
  /** Each of stdout and stderr keeps at most this many bytes (default 1 MiB); the rest is counted, not kept. */
  readonly maxOutputBytes?: number | undefined
  /** Given each piece of stdout as it arrives, all of it (`maxOutputBytes` bounds only what the result keeps). */
  readonly onStdout?: ((chunk: Uint8Array) => void) | undefined
}

export interface ExecResult {
  /** The command's exit code; 128 + n when killed by signal n (137: killed, as an OOM kill or a timeout is). */
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
  /** True when the output was longer than `maxOutputBytes` and was cut. */
  readonly stdoutTruncated: boolean
  readonly stderrTruncated: boolean
  readonly timedOut: boolean
  readonly durationMs: number
}

/**
 * System failures of a sandbox (nanoeval's rule: they are retried and never scored).
 * `Unavailable`: the runtime itself cannot be used (no Docker daemon, no bwrap) — a config error, not retried.
 * `BuildFailed`: the task's image would not build. `StartFailed`: the sandbox would not start.
 * `Died`: it stopped or was killed while in use. `ExecFailed`/`CopyFailed`: the runtime failed to run a command or
 * copy files (not the command failing: that is an `ExecResult` with its exit code).
 */
export class SandboxError extends Schema.TaggedError<SandboxError>()("SandboxError", {
  reason: Schema.Literal("Unavailable", "BuildFailed", "StartFailed", "Died", "ExecFailed", "CopyFailed"),
  message: Schema.String,
  cause: Schema.optional(Schema.Defect),
}) {
  /** A rollout's failure of kind `sandbox`: retried, never scored; a runtime that cannot be used is not retried. */
  get kind(): ErrorKind {
    return "sandbox"
  }
  get retryable(): boolean {
    return this.reason !== "Unavailable"
  }
  get retryAfterMs(): number | undefined {
    return undefined
  }
}

/** Where a sandbox's filesystem comes from. */
export type SandboxImage =
  /** An image the runtime already has (Docker: a tag; bwrap and local: ignored, the host's software). */
  | { readonly _tag: "Named"; readonly name: string }
  /** A directory with a Dockerfile (Harbor's `environment/`), built once and cached by its content's hash. */
  | { readonly _tag: "Dockerfile"; readonly context: string; readonly dockerfile?: string | undefined }

export interface SandboxLimits {
  readonly cpus?: number | undefined
  readonly memoryMb?: number | undefined
  readonly pids?: number | undefined
  /** Held where the runtime can (`enforcesStorage`): bubblewrap, as the size of each writable tmpfs. */
  readonly storageMb?: number | undefined
}

/** What a sandbox gets when its spec leaves a limit out: enough for a task, too little to take the machine down. */
export const DEFAULT_SANDBOX_LIMITS = { memoryMb: 2048, pids: 1024 } as const

export interface SandboxSpec {
  readonly image: SandboxImage
  /** The working directory (created when missing); default `/app` in a container, a fresh temp dir otherwise. */
  readonly workdir?: string | undefined
  readonly env?: Readonly<Record<string, string>> | undefined
  /**
   * Writable directories at these absolute paths, created empty (Harbor's `/logs`, `/tests`). In a container
   * they are plain directories; under bubblewrap, where the rest of the filesystem is the host's read-only,
   * each is a fresh directory of the sandbox's own bound there.
   */
  readonly mounts?: ReadonlyArray<string> | undefined
  /**
   * Files written as the sandbox opens, by absolute path (parents created): in the same step as `mounts` (Docker:
   * one archive upload), where a `writeFile` after opening costs a call of its own.
   */
  readonly files?: Readonly<Record<string, string>> | undefined
  /**
   * Host files or directories the sandbox sees read-only at the same absolute paths: a command-line agent's
   * program (Codex's and Claude Code's native binaries). Under bubblewrap this also reaches paths under the
   * hidden /tmp and homes; a container gets them as read-only bind mounts; `local` sees the host anyway.
   */
  readonly readOnlyPaths?: ReadonlyArray<string> | undefined
  /** Unset limits take the runtime's defaults (`DEFAULT_SANDBOX_LIMITS`): memory and pids are always bounded. */
  readonly limits?: SandboxLimits | undefined
  /**
   * By default a sandbox has no network at all. With `interceptor`, `127.0.0.1:{port}` inside the sandbox
   * reaches the interceptor (relayed to its unix socket on the host) and nothing else is reachable.
   */
  readonly network?: { readonly interceptor: { readonly socketPath: string; readonly port: number } } | undefined
  /** Every sandbox is labelled with its run and rollout, so what a `kill -9` leaves can be found and removed. */
  readonly labels: { readonly runId: string; readonly rolloutId: string }
}

/** One running sandbox; it is torn down when the scope that opened it closes, whatever ended it. */
export interface SandboxHandle {
  readonly id: string
  readonly runtime: SandboxRuntimeName
  readonly workdir: string
  readonly exec: (command: SandboxCommand, options?: ExecOptions) => Effect.Effect<ExecResult, SandboxError>
  /** Copies a host file or directory to `sandboxPath` (a directory's contents land under it). */
  readonly copyIn: (hostPath: string, sandboxPath: string) => Effect.Effect<void, SandboxError>
  /** Copies a sandbox file or directory to `hostPath`. */
  readonly copyOut: (sandboxPath: string, hostPath: string) => Effect.Effect<void, SandboxError>
  readonly writeFile: (sandboxPath: string, content: string | Uint8Array) => Effect.Effect<void, SandboxError>
  /** Null when the file does not exist. */
  readonly readFile: (sandboxPath: string) => Effect.Effect<Uint8Array | null, SandboxError>
}

export const SandboxRuntimeName = Schema.Literal("docker", "bwrap", "local")
export type SandboxRuntimeName = typeof SandboxRuntimeName.Type

/** What a prune did: sandboxes removed, and (without a run id) those left because their process still runs. */
export interface PruneOutcome {
  readonly removed: number
  readonly running: number
}

export interface SandboxRuntimeService {
  readonly name: SandboxRuntimeName
  /** False only for `local`: a run on it says so on its first line. */
  readonly isolated: boolean
  /** Whether `limits.storageMb` is held; a run on a runtime that cannot says so on its first line. */
  readonly enforcesStorage: boolean
  /** Builds or checks an image ahead of the rollouts that use it (a run builds each task's image once). */
  readonly prepare: (image: SandboxImage) => Effect.Effect<void, SandboxError>
  /** A sandbox for one rollout, torn down when the scope closes (success, failure, timeout or interrupt). */
  readonly open: (spec: SandboxSpec) => Effect.Effect<SandboxHandle, SandboxError, Scope.Scope>
  /**
   * Removes every sandbox labelled with `runId`; without one, every sandbox whose opening process has ended (what a
   * crash or `kill -9` left), leaving those of processes still running.
   */
  readonly prune: (runId?: string) => Effect.Effect<PruneOutcome, SandboxError>
  /**
   * Removes the sandboxes of this runtime's owner group (its cluster) whose owners are not in `liveOwners`
   * (processes killed before they could close them); resolves to how many. Another group's are left alone. Only on
   * runtimes whose sandboxes can outlive the process that opened them (Docker's containers; bubblewrap's die with
   * their parent).
   */
  readonly pruneOrphans?: ((liveOwners: ReadonlySet<string>) => Effect.Effect<number, SandboxError>) | undefined
}

/** Where rollouts' sandboxes come from: Docker, bubblewrap, or an unisolated local process. */
export class SandboxRuntime extends Context.Tag("@proctor/core/SandboxRuntime")<
  SandboxRuntime,
  SandboxRuntimeService
>() {}
