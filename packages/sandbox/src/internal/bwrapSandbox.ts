import { spawn } from "node:child_process"
import { lstatSync, mkdirSync, readdirSync, readlinkSync } from "node:fs"
import { cp, mkdir, readFile, readlink, rm, writeFile } from "node:fs/promises"
import { constants } from "node:os"
import { dirname, join } from "node:path"
import {
  type ExecOptions,
  type ExecResult,
  type SandboxCommand,
  SandboxError,
  type SandboxHandle,
  type SandboxSpec,
} from "@proctor/core"
import { Effect } from "effect"
import { type BwrapRecord, destroySandbox, sandboxDir, writeRecord } from "./bwrapRegistry.js"
import { CommandOutput } from "./CommandOutput.js"
import { causeMessage } from "./causeMessage.js"
import { createSandboxCgroups, sandboxCgroupDirs } from "./cgroups.js"
import { type RelayProgram, startInterceptorRelay } from "./interceptorRelay.js"
import { openerProcess } from "./openerProcess.js"
import { killProcessTree, processAlive, processStartTime } from "./processTree.js"
import { absoluteIn, argvOf, type EffectiveLimits, effectiveLimits, newSandboxId } from "./sandboxPaths.js"

export interface BwrapConfig {
  readonly registryRoot: string
  /** cgroups enforce memory, pids and CPU; without them (not root, no cgroup v1) rlimits do what they can. */
  readonly useCgroups: boolean
  readonly relay: RelayProgram
}

/** How long a command's output is read after it exited, for what its background processes still write. */
const OUTPUT_DRAIN_MS = 500
const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
const MIB = 1024 * 1024

/**
 * What a sandbox sees of the host, read-only: its installed software — `/usr`, `/etc`, `/opt` and the top-level
 * `bin`, `sbin` and `lib*` entries (links into `/usr` on a merged-/usr system). The host's data stays out:
 * `/var`, `/srv`, `/mnt`, `/media`, `/boot`, homes, and whatever else sits at the top level (a checkout, a data
 * disk). Besides isolation it is speed: bwrap reads the whole mount table for each bind, and the binds were most
 * of a sandbox's start (under `/var` it also copied Docker's container mounts).
 */
const SOFTWARE = /^(usr|etc|opt|s?bin|lib\w*)$/
/** Writable and empty, as in a fresh container: /var too, with its /var/tmp. */
const EMPTY_DIRS = ["/tmp", "/run", "/root", "/home", "/var"]

/**
 * The host's software entry by entry: bwrap's own root is then a tmpfs, where it can make mount points (`/app`,
 * `/logs`) that a single `--ro-bind / /` would refuse. Read once per process: the host's top level does not
 * change under a run.
 */
let hostRoot: Array<string> | undefined
const hostRootArgs = (): Array<string> => {
  hostRoot ??= readdirSync("/")
    .filter((name) => SOFTWARE.test(name))
    .flatMap((name) => {
      const path = `/${name}`
      const stat = lstatSync(path, { throwIfNoEntry: false })
      if (stat === undefined) return []
      return stat.isSymbolicLink() ? ["--symlink", readlinkSync(path), path] : ["--ro-bind", path, path]
    })
  return hostRoot
}

/** A writable directory of the sandbox's own: a tmpfs, as large as the storage limit when there is one. */
const tmpfsArgs = (path: string, storageMb: number | undefined): Array<string> =>
  storageMb === undefined ? ["--tmpfs", path] : ["--size", String(storageMb * MIB), "--tmpfs", path]

/**
 * Commands run as root, so RLIMIT_NPROC would not bind them: without cgroups only the address space and the
 * process count of a non-root user can be held; it is still asked for, and said so in the README.
 */
const rlimitArgs = (limits: EffectiveLimits): Array<string> => [
  "prlimit",
  `--as=${limits.memoryMb * MIB}`,
  `--nproc=${limits.pids}`,
  "--",
]

/** `sh` joins the cgroups first, then becomes the command, so everything it starts is counted from the start. */
const inCgroups = (cgroups: ReadonlyArray<string>, argv: ReadonlyArray<string>): Array<string> =>
  cgroups.length === 0
    ? [...argv]
    : [
        "/bin/sh",
        "-c",
        'while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs" || exit 125; shift; done; shift; exec "$@"',
        "sh",
        ...cgroups,
        "--",
        ...argv,
      ]

/** Opens one bubblewrap sandbox: a long-lived namespace that every command enters with `nsenter`. */
export const openBwrapSandbox = (config: BwrapConfig, spec: SandboxSpec) =>
  Effect.gen(function* () {
    const id = newSandboxId()
    const dir = sandboxDir(config.registryRoot, spec.labels.runId, id)
    const limits = effectiveLimits(spec.limits)
    const started = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => startNamespace(config, spec, id, dir, limits),
        catch: (cause) =>
          new SandboxError({
            reason: "StartFailed",
            message: `bubblewrap would not start: ${causeMessage(cause)}`,
            cause,
          }),
      }),
      ({ record, exited }) => Effect.promise(() => destroySandbox(dir, record, exited)),
    )
    if (spec.network !== undefined)
      yield* startInterceptorRelay(started.record.childPid, spec.network.interceptor, config.relay)
    const handle = makeBwrapHandle(id, started.record, started.workdir, started.enterUser, spec, limits)
    for (const [path, content] of Object.entries(spec.files ?? {})) yield* handle.writeFile(path, content)
    return handle
  })

/**
 * Starts the namespace: one `bwrap` whose command says `ready` once the sandbox is set up and then waits on its
 * stdin (a pipe proctor holds: a second lifeline beside `--die-with-parent`). The cgroups are made while bwrap
 * sets up, not before: only commands join them (see `exec`), the namespace's idle first processes need not.
 * Every writable directory (workdir, `mounts`, /tmp, /run, /root, /home, /var) is a tmpfs of the sandbox's own, as
 * large as `storageMb`; it goes with the namespace, and what is written there is charged to the writer's cgroup.
 */
const startNamespace = async (
  config: BwrapConfig,
  spec: SandboxSpec,
  id: string,
  dir: string,
  limits: EffectiveLimits,
) => {
  const storageMb = spec.limits?.storageMb
  // The default workdir's mount point exists on the host too, wherever the registry lives.
  mkdirSync(join(dir, "work"), { recursive: true })
  const workdir = spec.workdir ?? join(dir, "work")
  const cgroups = config.useCgroups ? sandboxCgroupDirs(spec.labels.runId, id, limits) : []
  // Written before anything exists: a kill -9 from here on leaves the cgroups and the directory to prune (the
  // namespace itself dies with proctor).
  writeRecord(dir, { bwrapPid: 0, bwrapStart: null, childPid: 0, childStart: null, cgroups, opener: openerProcess() })
  const child = spawn(
    "bwrap",
    [
      ...hostRootArgs(),
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      ...EMPTY_DIRS.flatMap((path) => tmpfsArgs(path, storageMb)),
      "--dir",
      "/var/tmp",
      ...tmpfsArgs(workdir, storageMb),
      ...(spec.mounts ?? []).flatMap((path) => tmpfsArgs(absoluteIn(workdir, path), storageMb)),
      // After the tmpfs: a read-only path under /tmp or a home shows through them.
      ...(spec.readOnlyPaths ?? []).flatMap((path) => ["--ro-bind", path, path]),
      "--unshare-all",
      "--die-with-parent",
      "--new-session",
      "--info-fd",
      "3",
      "--chdir",
      workdir,
      "--",
      // Its line says the sandbox is set up: bwrap names its child before the child has its mounts and root.
      "/bin/sh",
      "-c",
      "echo ready; read -r _",
    ],
    { stdio: ["pipe", "pipe", "pipe", "pipe"], env: { PATH: DEFAULT_PATH } },
  )
  // Its end, by exit or by failing to start at all.
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve())
    child.once("error", () => resolve())
  })
  try {
    const ready = readChildPid(child)
    // Made while bwrap sets the namespace up.
    createSandboxCgroups(cgroups, limits)
    const childPid = await ready
    const record: BwrapRecord = {
      bwrapPid: child.pid ?? 0,
      bwrapStart: processStartTime(child.pid ?? 0),
      childPid,
      childStart: processStartTime(childPid),
      cgroups,
      opener: openerProcess(),
    }
    writeRecord(dir, record)
    // As root bwrap makes no user namespace of its own unless it can; commands enter whichever it made.
    const enterUser = (await readlink(`/proc/${childPid}/ns/user`)) !== ownUserNamespaceOnce()
    return { record, workdir, enterUser, exited }
  } catch (cause) {
    await destroySandbox(
      dir,
      {
        bwrapPid: child.pid ?? 0,
        bwrapStart: processStartTime(child.pid ?? 0),
        childPid: 0,
        childStart: null,
        cgroups,
        opener: openerProcess(),
      },
      exited,
    )
    throw cause
  }
}

let ownUserNamespace: string | undefined
const ownUserNamespaceOnce = (): string => {
  ownUserNamespace ??= readlinkSync("/proc/self/ns/user")
  return ownUserNamespace
}

/**
 * bwrap writes `{"child-pid": N, …}` on its info fd once the namespaces exist, and the sandbox's first command
 * says `ready` once it runs; bwrap fails with a message on stderr.
 */
const readChildPid = (child: ReturnType<typeof spawn>): Promise<number> =>
  new Promise((resolve, reject) => {
    let info = ""
    let stderr = ""
    let ready = false
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const settle = () => {
      const match = /"child-pid":\s*(\d+)/.exec(info)
      if (match !== null && ready) resolve(Number(match[1]))
    }
    child.stdout?.once("data", () => {
      ready = true
      settle()
    })
    const infoPipe = child.stdio[3] as NodeJS.ReadableStream
    infoPipe.on("data", (chunk: Buffer) => {
      info += chunk.toString()
      settle()
    })
    child.once("error", reject)
    child.once("exit", (code) => reject(new Error(`bwrap exited ${code}: ${stderr.trim()}`)))
  })

const makeBwrapHandle = (
  id: string,
  record: BwrapRecord,
  workdir: string,
  enterUser: boolean,
  spec: SandboxSpec,
  limits: EffectiveLimits,
): SandboxHandle => {
  const root = `/proc/${record.childPid}/root`
  const alive = () => processAlive(record.childPid, record.childStart)
  const died = (what: string) =>
    new SandboxError({ reason: "Died", message: `the bubblewrap sandbox ${id} is gone (${what})` })
  const ensureAlive = (what: string) => (alive() ? Effect.void : Effect.fail(died(what)))

  const exec = Effect.fn("BwrapSandbox.exec")(function* (command: SandboxCommand, options: ExecOptions = {}) {
    yield* ensureAlive("before a command")
    const cwd = options.cwd === undefined ? workdir : absoluteIn(workdir, options.cwd)
    const enter = [
      "nsenter",
      `--target=${record.childPid}`,
      "--mount",
      "--net",
      "--pid",
      "--ipc",
      "--uts",
      ...(enterUser ? ["--user"] : []),
      "--root",
      // Opened before entering, through the sandbox's root, so it names the sandbox's directory.
      `--wd=${root}${cwd}`,
      "--",
      ...argvOf(command),
    ]
    const argv = inCgroups(record.cgroups, record.cgroups.length === 0 ? [...rlimitArgs(limits), ...enter] : enter)
    const result = yield* runProcess(argv, { PATH: DEFAULT_PATH, HOME: "/root", ...spec.env, ...options.env }, options)
    // A command killed by a signal, or nsenter failing to enter: the sandbox may be gone under it.
    if (result.exitCode !== 0) yield* ensureAlive("while a command ran")
    return result
  })

  const hostPathOf = (sandboxPath: string) => `${root}${absoluteIn(workdir, sandboxPath)}`
  const fileCall = <A>(what: string, call: () => Promise<A>) =>
    ensureAlive(what).pipe(
      Effect.zipRight(
        Effect.tryPromise({
          try: call,
          catch: (cause) =>
            alive()
              ? new SandboxError({
                  reason: "CopyFailed",
                  message: `${what}: ${causeMessage(cause)}`,
                  cause,
                })
              : died(what),
        }),
      ),
    )

  return {
    id,
    runtime: "bwrap",
    workdir,
    exec,
    copyIn: (hostPath, sandboxPath) =>
      fileCall(`copying ${hostPath} into the sandbox at ${sandboxPath}`, async () => {
        const target = hostPathOf(sandboxPath)
        await mkdir(dirname(target), { recursive: true })
        await cp(hostPath, target, { recursive: true, force: true, verbatimSymlinks: true })
      }),
    copyOut: (sandboxPath, hostPath) =>
      fileCall(`copying ${sandboxPath} out of the sandbox to ${hostPath}`, async () => {
        await rm(hostPath, { recursive: true, force: true })
        await cp(hostPathOf(sandboxPath), hostPath, { recursive: true, verbatimSymlinks: true })
      }),
    writeFile: (sandboxPath, content) =>
      fileCall(`writing ${sandboxPath} in the sandbox`, async () => {
        const target = hostPathOf(sandboxPath)
        await mkdir(dirname(target), { recursive: true })
        await writeFile(target, content)
      }),
    readFile: (sandboxPath) =>
      fileCall(`reading ${sandboxPath} in the sandbox`, async () => {
        try {
          return new Uint8Array(await readFile(hostPathOf(sandboxPath)))
        } catch (cause) {
          if ((cause as NodeJS.ErrnoException).code === "ENOENT") return null
          throw cause
        }
      }),
  }
}

/**
 * Runs one process to its end with capped output; a timeout or an interrupt kills its whole process tree (the
 * command's processes are nsenter's descendants on the host).
 */
const runProcess = (argv: ReadonlyArray<string>, env: Record<string, string>, options: ExecOptions) =>
  Effect.async<ExecResult, SandboxError>((resume) => {
    const output = new CommandOutput(options)
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], env })
    let settled = false
    let timedOut = false
    let drain: NodeJS.Timeout | undefined
    const settle = (outcome: Effect.Effect<ExecResult, SandboxError>) => {
      if (settled) return
      settled = true
      if (timer !== undefined) clearTimeout(timer)
      if (drain !== undefined) clearTimeout(drain)
      resume(outcome)
    }
    const result = (exitCode: number) => output.result(exitCode, timedOut)
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true
            if (child.pid !== undefined) killProcessTree(child.pid)
            // Orphans the command left may still hold its output open: the result does not wait for them.
            settle(Effect.succeed(result(137)))
          }, options.timeoutMs)
    child.stdout.on("data", (chunk: Buffer) => output.stdout.push(chunk))
    child.stderr.on("data", (chunk: Buffer) => output.stderr.push(chunk))
    child.stdin.on("error", () => {})
    child.stdin.end(options.stdin === undefined ? undefined : Buffer.from(options.stdin))
    child.once("error", (cause) =>
      settle(
        Effect.fail(
          new SandboxError({ reason: "ExecFailed", message: `nsenter would not start: ${cause.message}`, cause }),
        ),
      ),
    )
    const exitCodeOf = (code: number | null, signal: NodeJS.Signals | null) =>
      code ?? 128 + (signal === null ? 9 : constants.signals[signal])
    child.once("close", (code, signal) => settle(Effect.succeed(result(exitCodeOf(code, signal)))))
    // A process the command left in the background (`server &`) holds its output open: once the command has
    // exited, its output is awaited only briefly (as Docker does), so the command ends when it exits.
    child.once("exit", (code, signal) => {
      drain = setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
        settle(Effect.succeed(result(exitCodeOf(code, signal))))
      }, OUTPUT_DRAIN_MS)
    })
    return Effect.sync(() => {
      settled = true
      if (timer !== undefined) clearTimeout(timer)
      if (drain !== undefined) clearTimeout(drain)
      if (child.pid !== undefined) killProcessTree(child.pid)
    })
  })
