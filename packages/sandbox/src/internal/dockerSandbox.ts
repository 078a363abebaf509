import { mkdtemp, rename, rm, stat } from "node:fs/promises"
import type { Socket } from "node:net"
import { basename, dirname, join } from "node:path"
import type { Readable } from "node:stream"
import {
  type ExecOptions,
  type SandboxCommand,
  SandboxError,
  type SandboxHandle,
  type SandboxSpec,
} from "@proctor/core"
import { Effect } from "effect"
import type { SandboxOwner } from "../DockerRuntime.js"
import { CommandOutput } from "./CommandOutput.js"
import { DaemonTimeoutError, type DockerApi, DockerApiError } from "./DockerApi.js"
import { containerGone, dockerCall, sandboxError } from "./dockerErrors.js"
import { DockerFrameReader } from "./dockerFrames.js"
import { type RelayProgram, startInterceptorRelay } from "./interceptorRelay.js"
import { openerProcess } from "./openerProcess.js"
import { killProcessTree } from "./processTree.js"
import { absoluteIn, argvOf, effectiveLimits } from "./sandboxPaths.js"
import { firstFileOfTar, packHostPath, smallTreeTar, tarOf, unpackInto } from "./tar.js"

export const LABEL_SANDBOX = "proctor.sandbox"
export const LABEL_RUN = "proctor.run"
export const LABEL_ROLLOUT = "proctor.rollout"
/** The process that opened the container (a job server's worker): its sandboxes outlive it only if it was killed. */
export const LABEL_OWNER = "proctor.owner"
/** The owners' group (a job server's cluster): only its members prune the sandboxes its killed members left. */
export const LABEL_OWNER_GROUP = "proctor.owner_group"
/** The process that opened the container (`openerProcess`): a prune leaves it while that process runs. */
export const LABEL_OPENER = "proctor.opener"

const MIB = 1024 * 1024

interface ContainerState {
  readonly State: { readonly Running: boolean; readonly Pid: number }
}

/** The container's create body: no network, bounded memory (no swap), pids and CPU, an init reaping orphans. */
const createBody = (spec: SandboxSpec, image: string, workdir: string, owner: SandboxOwner | undefined) => {
  const limits = effectiveLimits(spec.limits)
  return {
    Image: image,
    Entrypoint: ["sleep"],
    Cmd: ["infinity"],
    WorkingDir: workdir,
    Env: Object.entries(spec.env ?? {}).map(([key, value]) => `${key}=${value}`),
    Labels: {
      [LABEL_SANDBOX]: "1",
      [LABEL_RUN]: spec.labels.runId,
      [LABEL_ROLLOUT]: spec.labels.rolloutId,
      [LABEL_OPENER]: openerProcess(),
      ...(owner === undefined ? {} : { [LABEL_OWNER]: owner.id, [LABEL_OWNER_GROUP]: owner.group }),
    },
    HostConfig: {
      NetworkMode: "none",
      Init: true,
      Binds: (spec.readOnlyPaths ?? []).map((path) => `${path}:${path}:ro`),
      Memory: limits.memoryMb * MIB,
      MemorySwap: limits.memoryMb * MIB,
      PidsLimit: limits.pids,
      ...(limits.cpus === undefined ? {} : { NanoCpus: Math.round(limits.cpus * 1e9) }),
    },
  }
}

/** Opens one container for `spec` from the already resolved `image`; it is removed when the scope closes. */
export const openDockerSandbox = (
  docker: DockerApi,
  spec: SandboxSpec,
  image: string,
  owner: SandboxOwner | undefined,
  relay: RelayProgram,
) =>
  Effect.gen(function* () {
    const workdir = spec.workdir ?? "/app"
    const id = yield* Effect.acquireRelease(
      dockerCall("StartFailed", `starting a container of ${image}`, async (signal) => {
        const created = await docker.json<{ Id: string }>(
          "POST",
          "/containers/create",
          createBody(spec, image, workdir, owner),
          signal,
        )
        try {
          await docker.json("POST", `/containers/${created.Id}/start`, undefined, signal)
        } catch (cause) {
          await removeContainer(docker, created.Id)
          throw cause
        }
        return created.Id
      }),
      (id) => Effect.promise(() => removeContainer(docker, id)),
    )
    const handle = makeDockerHandle(docker, id, workdir)
    const entries = [
      ...(spec.mounts ?? []).map((path) => ({ path: absoluteIn(workdir, path).slice(1), directory: true })),
      ...Object.entries(spec.files ?? {}).map(([path, content]) => ({
        path: absoluteIn(workdir, path).slice(1),
        content: Buffer.from(content),
      })),
    ]
    if (entries.length > 0) {
      yield* dockerCall("StartFailed", "creating the sandbox's directories and files", (signal) =>
        putArchive(docker, id, tarOf(entries), signal),
      )
    }
    if (spec.network !== undefined) {
      const { interceptor } = spec.network
      const state = yield* dockerCall("StartFailed", "inspecting the container", (signal) =>
        docker.json<ContainerState>("GET", `/containers/${id}/json`, undefined, signal),
      )
      yield* startInterceptorRelay(state.State.Pid, interceptor, relay)
    }
    return handle
  })

/**
 * Removes a container and its anonymous volumes, running or not; a container already gone is fine. Never fails:
 * the rollout's result stands whatever becomes of its container. A daemon that does not answer is said on stderr,
 * since it is wedged (every later rollout will fail to start until dockerd restarts) and the container stays.
 */
export const removeContainer = async (docker: DockerApi, id: string): Promise<void> => {
  try {
    await docker.json("DELETE", `/containers/${id}?force=1&v=1`)
  } catch (cause) {
    if (cause instanceof DaemonTimeoutError) {
      process.stderr.write(
        `warning: container ${id.slice(0, 12)} was not removed: ${cause.message}; then \`proctor sandbox prune\`\n`,
      )
    }
  }
}

const putArchive = async (docker: DockerApi, id: string, body: Buffer | Readable, signal?: AbortSignal) => {
  const response = await docker.raw(
    "PUT",
    `/containers/${id}/archive?path=/`,
    body,
    { "content-type": "application/x-tar" },
    signal,
  )
  const text = (await response.body.text()).trim()
  if (response.status >= 300) throw new DockerApiError(response.status, text)
}

const makeDockerHandle = (docker: DockerApi, id: string, workdir: string): SandboxHandle => {
  const died = (message: string, cause?: unknown) => new SandboxError({ reason: "Died", message, cause })

  /** After a command ended by a signal: was it the command, or the whole container? */
  const checkAlive = (what: string) =>
    dockerCall("ExecFailed", "inspecting the container", async (signal) => {
      try {
        return (await docker.json<ContainerState>("GET", `/containers/${id}/json`, undefined, signal)).State.Running
      } catch (cause) {
        if (containerGone(cause) || (cause as { status?: number }).status === 404) return false
        throw cause
      }
    }).pipe(
      Effect.filterOrFail(
        (running) => running,
        () => died(`the container ${id.slice(0, 12)} stopped while ${what}`),
      ),
    )

  const exec = Effect.fn("DockerSandbox.exec")(function* (command: SandboxCommand, options: ExecOptions = {}) {
    const output = new CommandOutput(options)
    const argv = argvOf(command)
    const execId = yield* dockerCall("ExecFailed", `creating exec of ${argv[0]}`, (signal) =>
      docker
        .json<{ Id: string }>(
          "POST",
          `/containers/${id}/exec`,
          {
            AttachStdin: options.stdin !== undefined,
            AttachStdout: true,
            AttachStderr: true,
            Tty: false,
            Cmd: argv,
            Env: Object.entries(options.env ?? {}).map(([key, value]) => `${key}=${value}`),
            WorkingDir: options.cwd === undefined ? workdir : absoluteIn(workdir, options.cwd),
          },
          signal,
        )
        .then((created) => created.Id),
    )
    const timedOut = yield* streamExec(docker, execId, new DockerFrameReader(output.stdout, output.stderr), options)
    const exitCode = timedOut ? 137 : yield* execExitCode(docker, execId)
    // Killed by a signal: the command alone (an OOM kill, a timeout), or the container under it.
    if (exitCode === null || exitCode >= 128) yield* checkAlive(`running ${argv[0]}`)
    return output.result(exitCode ?? 137, timedOut)
  })

  const copyIn = Effect.fn("DockerSandbox.copyIn")(function* (hostPath: string, sandboxPath: string) {
    const target = absoluteIn(workdir, sandboxPath)
    yield* dockerCall("CopyFailed", `copying ${hostPath} into the sandbox at ${target}`, async (signal) => {
      const small = smallTreeTar(hostPath, target.slice(1))
      if (small !== null) return putArchive(docker, id, small, signal)
      const isDirectory = (await stat(hostPath)).isDirectory()
      const tar = packHostPath(hostPath, target.slice(1), isDirectory)
      // A refused upload leaves tar blocked on a full pipe: it goes with the failure.
      await Promise.all([putArchive(docker, id, tar.stdout, signal), tar.done]).catch((cause) => {
        tar.kill()
        throw cause
      })
    })
  })

  const copyOut = Effect.fn("DockerSandbox.copyOut")(function* (sandboxPath: string, hostPath: string) {
    const source = absoluteIn(workdir, sandboxPath)
    yield* dockerCall("CopyFailed", `copying ${source} out of the sandbox to ${hostPath}`, async (signal) => {
      const response = await docker.raw(
        "GET",
        `/containers/${id}/archive?path=${encodeURIComponent(source)}`,
        undefined,
        {},
        signal,
      )
      if (response.status >= 300) {
        throw new DockerApiError(response.status, (await response.body.text()).trim())
      }
      // Unpacked beside the destination, then moved: a copy cut short leaves nothing at `hostPath`.
      const staging = await mkdtemp(join(dirname(hostPath), `.${basename(hostPath)}.proctor-`))
      try {
        await unpackInto(staging, response.body)
        await rename(join(staging, source === "/" ? "." : basename(source)), hostPath)
      } finally {
        await rm(staging, { recursive: true, force: true })
      }
    })
  })

  const writeFile = Effect.fn("DockerSandbox.writeFile")(function* (sandboxPath: string, content: string | Uint8Array) {
    const target = absoluteIn(workdir, sandboxPath)
    const bytes = typeof content === "string" ? Buffer.from(content) : content
    yield* dockerCall("CopyFailed", `writing ${target} in the sandbox`, (signal) =>
      putArchive(docker, id, tarOf([{ path: target.slice(1), content: bytes }]), signal),
    )
  })

  const readFile = Effect.fn("DockerSandbox.readFile")(function* (sandboxPath: string) {
    const source = absoluteIn(workdir, sandboxPath)
    return yield* dockerCall("CopyFailed", `reading ${source} in the sandbox`, async (signal) => {
      const response = await docker.raw(
        "GET",
        `/containers/${id}/archive?path=${encodeURIComponent(source)}`,
        undefined,
        {},
        signal,
      )
      const body = Buffer.from(await response.body.arrayBuffer())
      if (response.status === 404 && !/no such container/i.test(body.toString())) return null
      if (response.status >= 300) {
        throw new DockerApiError(response.status, body.toString().trim())
      }
      const file = firstFileOfTar(body)
      if (file === "not-a-file") throw new Error(`${source} is not a regular file`)
      return new Uint8Array(file)
    })
  })

  return { id: id.slice(0, 12), runtime: "docker", workdir, exec, copyIn, copyOut, writeFile, readFile }
}

/**
 * Streams an exec's output until it ends, feeding stdin first when given; resolves to whether the timeout ended
 * it. A timeout or an interrupt kills the command's whole process tree (its host pids, which proctor can see:
 * the daemon runs on this machine), since the Engine API has no call to stop an exec.
 */
const streamExec = (docker: DockerApi, execId: string, frames: DockerFrameReader, options: ExecOptions) =>
  Effect.async<boolean, SandboxError>((resume) => {
    let socket: Socket | null = null
    let settled = false
    const killCommand = () =>
      docker
        .json<{ Pid: number }>("GET", `/exec/${execId}/json`)
        .then((info) => {
          if (info.Pid > 0) killProcessTree(info.Pid)
        })
        .catch(() => {})
    const finish = (outcome: Effect.Effect<boolean, SandboxError>) => {
      if (settled) return
      settled = true
      if (timer !== undefined) clearTimeout(timer)
      resume(outcome)
    }
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            void killCommand().then(() => {
              socket?.destroy()
              finish(Effect.succeed(true))
            })
          }, options.timeoutMs)
    docker.startExec(execId).then(
      (connection) => {
        socket = connection
        if (settled) {
          connection.destroy()
          return
        }
        connection.on("data", (chunk: Buffer) => frames.push(chunk))
        connection.once("end", () => finish(Effect.succeed(false)))
        connection.once("close", () => finish(Effect.succeed(false)))
        connection.once("error", (cause) =>
          finish(Effect.fail(sandboxError("ExecFailed", "reading the command's output")(cause))),
        )
        connection.resume()
        if (options.stdin !== undefined) {
          connection.end(typeof options.stdin === "string" ? Buffer.from(options.stdin) : options.stdin)
        }
      },
      (cause) => finish(Effect.fail(sandboxError("ExecFailed", "starting the command")(cause))),
    )
    return Effect.promise(async () => {
      settled = true
      if (timer !== undefined) clearTimeout(timer)
      await killCommand()
      ;(socket as Socket | null)?.destroy()
    })
  })

/** The exec's exit code once the daemon has it (it may trail the end of the stream by a moment); null if none. */
const execExitCode = (docker: DockerApi, execId: string) =>
  dockerCall("ExecFailed", "reading the command's exit code", async (signal) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const info = await docker.json<{ Running: boolean; ExitCode: number | null }>(
        "GET",
        `/exec/${execId}/json`,
        undefined,
        signal,
      )
      if (!info.Running) return info.ExitCode
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return null
  })
