import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { connect, createServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, vi } from "@effect/vitest"
import { Effect, type Scope } from "effect"
import { DockerRuntime } from "../src/index.js"
import { describeRuntime, newRunId, specFor } from "./sandboxContract.js"

const containersOf = (runId: string): Array<string> =>
  execFileSync("docker", ["ps", "-aq", "--filter", `label=proctor.run=${runId}`], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((id) => `container ${id}`)

describeRuntime({
  name: "docker",
  make: DockerRuntime.make(),
  makeWithRelay: (relay) => DockerRuntime.make({ relay }),
  image: { _tag: "Named", name: "proctor-busybox" },
  pythonImage: { _tag: "Named", name: "proctor-debian" },
  leftovers: containersOf,
  killFromOutside: (_runId, sandboxId) => {
    execFileSync("docker", ["kill", sandboxId], { stdio: "ignore" })
  },
})

describe("docker: images", () => {
  it.live("builds a Dockerfile context once, by content, and names a missing image clearly", () =>
    Effect.gen(function* () {
      const context = mkdtempSync(join(tmpdir(), "proctor-image-"))
      const marker = crypto.randomUUID()
      writeFileSync(join(context, "Dockerfile"), `FROM proctor-busybox\nRUN echo ${marker} > /marker\nWORKDIR /app\n`)
      const runtime = yield* DockerRuntime.make()
      const image = { _tag: "Dockerfile", context } as const
      yield* runtime.prepare(image)
      // Sorted: Docker lists images created in the same second in no fixed order.
      const tags = () =>
        execFileSync("docker", ["images", "--format", "{{.Repository}}:{{.Tag}} {{.ID}}", "proctor-env"], {
          encoding: "utf8",
        })
          .split("\n")
          .sort()
          .join("\n")
      const before = tags()
      const runId = newRunId()
      const sandbox = yield* runtime.open(specFor(runId, image))
      expect((yield* sandbox.exec("cat /marker")).stdout).toBe(`${marker}\n`)
      expect(tags()).toBe(before)

      writeFileSync(join(context, "Dockerfile"), "FROM proctor-busybox\nRUN exit 3\n")
      const broken = yield* Effect.flip(runtime.prepare(image))
      expect(broken.reason).toBe("BuildFailed")
      expect(broken.message).toContain("exit 3")
      const missing = yield* Effect.flip(runtime.prepare({ _tag: "Named", name: "proctor-no-such-image:1" }))
      expect(missing).toMatchObject({ reason: "BuildFailed" })
      expect(missing.message).toContain("proctor-no-such-image:1")
    }).pipe(Effect.scoped),
  )

  it.live("a daemon that does not answer makes the runtime Unavailable", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(DockerRuntime.make({ socketPath: join(tmpdir(), "no-docker-here.sock") }))
      expect(error.reason).toBe("Unavailable")
    }).pipe(Effect.scoped),
  )
})

describe("docker: orphans of killed owners", () => {
  it.live("pruneOrphans removes its group's sandboxes whose owner is not live, never another group's", () =>
    Effect.gen(function* () {
      const group = newRunId()
      const runId = newRunId()
      const image = { _tag: "Named", name: "proctor-busybox" } as const
      const live = yield* DockerRuntime.make({ owner: { id: "live", group } })
      const unowned = yield* DockerRuntime.make()
      const openers = [
        live,
        yield* DockerRuntime.make({ owner: { id: "gone", group } }),
        // Another cluster's worker on the same daemon, not live in this one's eyes: not this group's to remove.
        yield* DockerRuntime.make({ owner: { id: "gone", group: `${group}-other` } }),
        unowned,
      ]
      for (const runtime of openers) yield* runtime.open(specFor(runId, image))
      const owners = () =>
        execFileSync(
          "docker",
          [
            "ps",
            "-a",
            "--filter",
            `label=proctor.run=${runId}`,
            "--format",
            '{{.Label "proctor.owner"}}@{{.Label "proctor.owner_group"}}',
          ],
          { encoding: "utf8" },
        )
          .split("\n")
          .filter(Boolean)
          .sort()
      expect(owners()).toEqual(["@", `gone@${group}`, `gone@${group}-other`, `live@${group}`])

      expect(yield* live.pruneOrphans!(new Set(["live"]))).toBe(1)
      expect(owners()).toEqual(["@", `gone@${group}-other`, `live@${group}`])
      // A runtime without an owner belongs to no group, and prunes nothing.
      expect(yield* unowned.pruneOrphans!(new Set())).toBe(0)
      expect(owners()).toHaveLength(3)
    }).pipe(Effect.scoped),
  )
})

/**
 * A stand-in for a wedged daemon, which cannot be made on demand: a socket that forwards to the real daemon's,
 * except that a request whose first line matches `hold` is neither forwarded nor ever answered, as dockerd
 * 20.10's libnetwork deadlock (moby/moby#46661) leaves them while `/_ping` still answers. A request starts a chunk
 * of its own: the runtime sends the next on a connection only once the last is answered (undici's pipelining 1).
 */
const wedgedDaemon = (hold: RegExp) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const dir = mkdtempSync(join(tmpdir(), "proctor-wedged-"))
      const sockets = new Set<Socket>()
      const server = createServer((client) => {
        const daemon = connect("/var/run/docker.sock")
        let held = false
        for (const socket of [client, daemon]) {
          sockets.add(socket)
          socket.on("error", () => {})
          socket.on("close", () => (socket === client ? daemon : client).destroy())
        }
        client.on("data", (chunk: Buffer) => {
          held ||= hold.test(chunk.toString("latin1", 0, 200))
          if (!held) daemon.write(chunk)
        })
        daemon.pipe(client)
      })
      const path = join(dir, "docker.sock")
      await new Promise<void>((resolve) => server.listen(path, resolve))
      return { path, server, sockets, dir }
    }),
    ({ server, sockets, dir }) =>
      Effect.promise(async () => {
        for (const socket of sockets) socket.destroy()
        await new Promise((resolve) => server.close(resolve))
        rmSync(dir, { recursive: true, force: true })
      }),
  )

/** Removes the run's containers through the real daemon when the test's scope closes, whatever the test left. */
const removedAtEnd = (runId: string) =>
  Effect.addFinalizer(() =>
    Effect.sync(() => {
      for (const id of containersOf(runId)) execFileSync("docker", ["rm", "-f", id.split(" ")[1] ?? ""])
    }),
  )

/**
 * Bounds `effect` (opening and closing a runtime) at a few seconds. Disconnected: a call that hangs in an
 * uninterruptible acquire or release fails the test at the bound instead of holding it.
 */
const withinSeconds = <A, E>(what: string, effect: Effect.Effect<A, E, Scope.Scope>) =>
  effect.pipe(
    Effect.scoped,
    Effect.disconnect,
    Effect.timeoutFail({ duration: "8 seconds", onTimeout: () => new Error(`${what} still hangs after 8 s`) }),
  )

/** Captures stderr (restored with the test's scope) as the warnings a runtime writes there. */
const stderrLines = Effect.acquireRelease(
  Effect.sync(() => vi.spyOn(process.stderr, "write").mockImplementation(() => true)),
  (spy) => Effect.sync(() => spy.mockRestore()),
).pipe(Effect.map((spy) => () => spy.mock.calls.map((call) => String(call[0])).join("")))

describe("docker: a daemon that stops answering", () => {
  const hint = /within 1\.5 s while \/_ping answers: it may be deadlocked \(.*moby\/moby#46661\); restart dockerd/

  it.live("a removal it does not answer ends the teardown in seconds with a warning, the container left", () =>
    Effect.gen(function* () {
      const daemon = yield* wedgedDaemon(/^DELETE \/v1\.41\/containers\//)
      const runId = newRunId()
      yield* removedAtEnd(runId)
      const stderr = yield* stderrLines
      yield* withinSeconds(
        "the teardown",
        Effect.gen(function* () {
          const runtime = yield* DockerRuntime.make({ socketPath: daemon.path, callTimeoutMs: 1500 })
          const sandbox = yield* runtime.open(specFor(runId, { _tag: "Named", name: "proctor-busybox" }))
          expect((yield* sandbox.exec(["echo", "ok"])).stdout).toBe("ok\n")
        }),
      )
      const [line, ...more] = stderr().split("\n").filter(Boolean)
      expect(more).toEqual([])
      expect(line).toMatch(/^warning: container [0-9a-f]{12} was not removed: .*DELETE \/containers\/[0-9a-f]{12} /)
      expect(line).toMatch(hint)
      expect(line).toContain("proctor sandbox prune")
      expect(containersOf(runId)).toHaveLength(1)
    }).pipe(Effect.scoped),
  )

  it.live("a start it does not answer fails the open with a retried StartFailed naming the hint", () =>
    Effect.gen(function* () {
      const daemon = yield* wedgedDaemon(/^POST \/v1\.41\/containers\/[0-9a-f]+\/start /)
      const runId = newRunId()
      yield* removedAtEnd(runId)
      const error = yield* withinSeconds(
        "the open",
        Effect.gen(function* () {
          const runtime = yield* DockerRuntime.make({ socketPath: daemon.path, callTimeoutMs: 1500 })
          return yield* Effect.flip(runtime.open(specFor(runId, { _tag: "Named", name: "proctor-busybox" })))
        }),
      )
      expect(error).toMatchObject({ reason: "StartFailed", retryable: true })
      expect(error.message).toMatch(
        /^starting a container of proctor-busybox: .*POST \/containers\/[0-9a-f]{12}\/start /,
      )
      expect(error.message).toMatch(hint)
      expect(error.message).not.toContain("\n")
      // The removal after the failed start is answered: the container it created is gone.
      expect(containersOf(runId)).toEqual([])
    }).pipe(Effect.scoped),
  )
})
