import { spawn } from "node:child_process"
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, isAbsolute, join } from "node:path"
import { Effect, Layer } from "effect"
import {
  type ExecOptions,
  type ExecResult,
  type SandboxCommand,
  SandboxError,
  type SandboxHandle,
  SandboxRuntime,
  type SandboxRuntimeService,
  type SandboxSpec,
} from "./Sandbox.js"

/**
 * The `local` runtime: no isolation at all. Each sandbox is a fresh temp directory (its root) and each command a
 * child process in its own process group. Harbor's absolute paths are mapped under the root — `/app` is
 * `ROOT/app`, `/tests` is `ROOT/tests`, `/logs/verifier` is `ROOT/logs/verifier` — for every path proctor hands the
 * handle (copies, reads, writes, `cwd`). Commands themselves are not rewritten: they get `SANDBOX_ROOT=ROOT` in
 * their environment, so a script that writes `"$SANDBOX_ROOT/logs/verifier/reward.txt"` works here and, with the
 * variable unset, in a container (`/logs/verifier/reward.txt`). A command sees only `PATH`, `LANG`, `HOME` (the
 * root), `SANDBOX_ROOT` and the environment it is given: nothing of proctor's own (keys stay out).
 * `memoryMb` is applied as `ulimit -v`; cpus, pids and storage are not enforced.
 */

const DEFAULT_MAX_OUTPUT = 1024 * 1024
const DIR_PREFIX = "proctor-sandbox-"

/** A label safe in a file name: the run id's own characters, anything else as `_`. */
const labelPart = (value: string) => value.replace(/[^A-Za-z0-9_.-]/g, "_")

const failure = (reason: SandboxError["reason"], message: string) => (cause: unknown) =>
  new SandboxError({ reason, message: `${message}: ${cause instanceof Error ? cause.message : String(cause)}`, cause })

/** Keeps the first `limit` bytes of a stream and counts the rest. */
const capture = (limit: number) => {
  const chunks: Buffer[] = []
  let kept = 0
  let truncated = false
  return {
    push: (chunk: Buffer) => {
      if (kept >= limit) {
        truncated = true
        return
      }
      const piece = chunk.length > limit - kept ? chunk.subarray(0, limit - kept) : chunk
      if (piece.length < chunk.length) truncated = true
      chunks.push(piece)
      kept += piece.length
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
    truncated: () => truncated,
  }
}

const killGroup = (pid: number | undefined) => {
  if (pid === undefined) return
  try {
    process.kill(-pid, "SIGKILL")
  } catch {
    // Already gone.
  }
}

const openLocal = (spec: SandboxSpec) =>
  Effect.gen(function* () {
    const root = yield* Effect.tryPromise({
      try: () => mkdtemp(join(tmpdir(), `${DIR_PREFIX}${labelPart(spec.labels.runId)}--`)),
      catch: failure("StartFailed", "cannot create the local sandbox's directory"),
    })
    const resolve = (path: string, base: string) => join(root, isAbsolute(path) ? path : join(base, path))
    const workdir = spec.workdir ?? "/app"
    for (const path of [workdir, ...(spec.mounts ?? [])]) {
      yield* Effect.tryPromise({
        try: () => mkdir(resolve(path, workdir), { recursive: true }),
        catch: failure("StartFailed", `cannot create ${path} in the local sandbox`),
      })
    }
    for (const [path, content] of Object.entries(spec.files ?? {})) {
      yield* Effect.tryPromise({
        try: async () => {
          await mkdir(dirname(resolve(path, workdir)), { recursive: true })
          await writeFile(resolve(path, workdir), content)
        },
        catch: failure("StartFailed", `cannot write ${path} in the local sandbox`),
      })
    }
    const live = new Set<number>()
    // Teardown always happens: every process group still running is killed, then the directory goes.
    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        for (const pid of live) killGroup(pid)
        await rm(root, { recursive: true, force: true }).catch(() => undefined)
      }),
    )
    const baseEnv = {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      LANG: process.env.LANG ?? "C.UTF-8",
      HOME: root,
      SANDBOX_ROOT: root,
      ...spec.env,
    }
    const memoryKb = spec.limits?.memoryMb === undefined ? null : Math.floor(spec.limits.memoryMb * 1024)

    const exec = (command: SandboxCommand, options: ExecOptions = {}) =>
      Effect.async<ExecResult, SandboxError>((resume) => {
        const argv = typeof command === "string" ? ["sh", "-c", command] : [...command]
        const limited = memoryKb === null ? argv : ["sh", "-c", `ulimit -v ${memoryKb} && exec "$@"`, "sh", ...argv]
        const limit = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT
        const stdout = capture(limit)
        const stderr = capture(limit)
        const started = Date.now()
        let timedOut = false
        const child = spawn(limited[0] ?? "sh", limited.slice(1), {
          cwd: resolve(options.cwd ?? workdir, workdir),
          env: { ...baseEnv, ...options.env },
          detached: true,
          stdio: ["pipe", "pipe", "pipe"],
        })
        const pid = child.pid
        if (pid !== undefined) live.add(pid)
        const timer =
          options.timeoutMs === undefined
            ? undefined
            : setTimeout(() => {
                timedOut = true
                killGroup(pid)
              }, options.timeoutMs)
        child.stdout.on("data", stdout.push)
        if (options.onStdout !== undefined) child.stdout.on("data", options.onStdout)
        child.stderr.on("data", stderr.push)
        child.stdin.on("error", () => undefined)
        child.stdin.end(options.stdin ?? "")
        child.on("error", (error) => {
          clearTimeout(timer)
          if (pid !== undefined) live.delete(pid)
          resume(Effect.fail(failure("ExecFailed", `cannot run ${argv[0]}`)(error)))
        })
        child.on("close", (code, signal) => {
          clearTimeout(timer)
          if (pid !== undefined) live.delete(pid)
          // The command is done; whatever it left running in its group goes with it.
          killGroup(pid)
          const signalNumber = signal === null ? 0 : (SIGNALS[signal] ?? 9)
          resume(
            Effect.succeed({
              exitCode: code ?? 128 + signalNumber,
              stdout: stdout.text(),
              stderr: stderr.text(),
              stdoutTruncated: stdout.truncated(),
              stderrTruncated: stderr.truncated(),
              timedOut,
              durationMs: Date.now() - started,
            }),
          )
        })
        return Effect.sync(() => killGroup(pid))
      })

    const handle: SandboxHandle = {
      id: root,
      runtime: "local",
      workdir,
      exec,
      copyIn: (hostPath, sandboxPath) =>
        Effect.tryPromise({
          try: async () => {
            const target = resolve(sandboxPath, workdir)
            await mkdir(dirname(target), { recursive: true })
            await cp(hostPath, target, { recursive: true })
          },
          catch: failure("CopyFailed", `cannot copy ${hostPath} to ${sandboxPath}`),
        }),
      copyOut: (sandboxPath, hostPath) =>
        Effect.tryPromise({
          try: () => cp(resolve(sandboxPath, workdir), hostPath, { recursive: true }),
          catch: failure("CopyFailed", `cannot copy ${sandboxPath} out`),
        }),
      writeFile: (sandboxPath, content) =>
        Effect.tryPromise({
          try: async () => {
            const target = resolve(sandboxPath, workdir)
            await mkdir(dirname(target), { recursive: true })
            await writeFile(target, content)
          },
          catch: failure("CopyFailed", `cannot write ${sandboxPath}`),
        }),
      readFile: (sandboxPath) =>
        Effect.tryPromise({
          try: () =>
            readFile(resolve(sandboxPath, workdir)).then(
              (bytes): Uint8Array | null => bytes,
              (error: NodeJS.ErrnoException) => {
                if (error.code === "ENOENT") return null
                throw error
              },
            ),
          catch: failure("CopyFailed", `cannot read ${sandboxPath}`),
        }),
    }
    return handle
  })

const SIGNALS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGSEGV: 11, SIGTERM: 15 }

/** Removes the directories of a run's local sandboxes (or every one proctor left) that a `kill -9` left behind. */
const pruneLocal = (runId?: string) =>
  Effect.tryPromise({
    try: async () => {
      const prefix = runId === undefined ? DIR_PREFIX : `${DIR_PREFIX}${labelPart(runId)}--`
      const stale = (await readdir(tmpdir())).filter((name) => name.startsWith(prefix))
      await Promise.all(stale.map((name) => rm(join(tmpdir(), name), { recursive: true, force: true })))
      return { removed: stale.length, running: 0 }
    },
    catch: failure("Unavailable", "cannot list the local sandboxes"),
  })

export const makeLocalRuntime = (): SandboxRuntimeService => ({
  name: "local",
  isolated: false,
  enforcesStorage: false,
  prepare: () => Effect.void,
  open: (spec) => openLocal(spec).pipe(Effect.withSpan("LocalRuntime.open")),
  prune: pruneLocal,
})

/** The `local` runtime as a `SandboxRuntime` layer. */
export const LocalRuntime = {
  make: makeLocalRuntime,
  layer: Layer.succeed(SandboxRuntime, makeLocalRuntime()),
} as const
