import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer as createHttpServer } from "node:http"
import { createServer as createTcpServer } from "node:net"
import { networkInterfaces, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import type { SandboxImage, SandboxRuntimeService, SandboxSpec } from "@proctor/core"
import type { RelayProgram } from "@proctor/sandbox"
import { waitForEffect } from "@proctor/test-kit"
import { Effect, Exit, Fiber, type Scope } from "effect"

/** What each runtime's test file supplies to the tests every runtime must pass. */
export interface RuntimeUnderTest {
  readonly name: "docker" | "bwrap"
  readonly make: Effect.Effect<SandboxRuntimeService, unknown, Scope.Scope>
  /** The runtime with the interceptor relay of its choice. */
  readonly makeWithRelay: (relay: RelayProgram) => Effect.Effect<SandboxRuntimeService, unknown, Scope.Scope>
  /** A small image (busybox) and one with python3. */
  readonly image: SandboxImage
  readonly pythonImage: SandboxImage
  /** What of `runId` is left on the machine (containers, processes, directories), described; empty when nothing. */
  readonly leftovers: (runId: string) => ReadonlyArray<string>
  /** Kills the sandbox from outside, as an OOM killer or an operator would. */
  readonly killFromOutside: (runId: string, sandboxId: string) => void
  /** More arguments for fixtures/openAndWait.mjs (bwrap: its registry). */
  readonly fixtureArgs?: ReadonlyArray<string>
}

export const newRunId = (): string => `test-${crypto.randomUUID().slice(0, 8)}`

export const specFor = (runId: string, image: SandboxImage, extra: Partial<SandboxSpec> = {}): SandboxSpec => ({
  image,
  labels: { runId, rolloutId: "r0" },
  ...extra,
})

const CONNECT_PY =
  "import socket,sys\ntry:\n  s=socket.create_connection((sys.argv[1],int(sys.argv[2])),timeout=3)\n" +
  "  s.sendall(b'GET /probe HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n')\n  print(s.recv(200).decode())\nexcept OSError as e:\n" +
  "  print('refused', type(e).__name__)\n  sys.exit(7)\n"

/** The first IPv4 address of this machine that is not loopback (reaching it would be leaving the sandbox). */
const hostAddress = (): string => {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === "IPv4" && !address.internal) return address.address
  }
  return "192.0.2.1"
}

export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

export const describeRuntime = (runtime: RuntimeUnderTest) => {
  const withSandbox = <A, E>(
    runId: string,
    use: (handle: Effect.Effect.Success<ReturnType<SandboxRuntimeService["open"]>>) => Effect.Effect<A, E>,
    extra: Partial<SandboxSpec> = {},
  ) =>
    Effect.gen(function* () {
      const service = yield* runtime.make
      const handle = yield* service.open(specFor(runId, runtime.image, extra))
      return yield* use(handle)
    }).pipe(Effect.scoped)

  describe(`${runtime.name}: commands`, () => {
    it.live("runs argv and shell lines with cwd, env, stdin, exit codes and separate streams", () =>
      withSandbox(
        newRunId(),
        (sandbox) =>
          Effect.gen(function* () {
            const argv = yield* sandbox.exec(["echo", "hello world", "$HOME"])
            expect(argv).toMatchObject({ exitCode: 0, stdout: "hello world $HOME\n", stderr: "", timedOut: false })
            const shell = yield* sandbox.exec('echo "$SPEC_VAR $EXEC_VAR"; echo oops >&2; exit 3', {
              env: { EXEC_VAR: "from-exec" },
            })
            expect(shell).toMatchObject({ exitCode: 3, stdout: "from-spec from-exec\n", stderr: "oops\n" })
            expect((yield* sandbox.exec("pwd")).stdout).toBe(`${sandbox.workdir}\n`)
            expect((yield* sandbox.exec("pwd", { cwd: "/tmp" })).stdout).toBe("/tmp\n")
            yield* sandbox.exec(["mkdir", "sub"])
            expect((yield* sandbox.exec("pwd", { cwd: "sub" })).stdout).toBe(`${sandbox.workdir}/sub\n`)
            const piped = yield* sandbox.exec(["sh", "-c", "tr a-z A-Z; echo done"], { stdin: "some input\n" })
            expect(piped.stdout).toBe("SOME INPUT\ndone\n")
            const bytes = yield* sandbox.exec(["wc", "-c"], { stdin: new Uint8Array(300_000).fill(65) })
            expect(bytes.stdout.trim()).toBe("300000")
            // No stdin: it is empty, so a reader of it ends at once.
            expect(yield* sandbox.exec(["cat"])).toMatchObject({ exitCode: 0, stdout: "" })
            expect((yield* sandbox.exec(["sh", "-c", "kill -TERM $$"])).exitCode).toBe(143)
            expect((yield* sandbox.exec(["no-such-command-here"])).exitCode).not.toBe(0)
          }),
        { env: { SPEC_VAR: "from-spec" } },
      ),
    )

    it.live("caps stdout and stderr separately and says it cut them", () =>
      withSandbox(newRunId(), (sandbox) =>
        Effect.gen(function* () {
          const result = yield* sandbox.exec("yes abcdefgh | head -c 200000; echo short >&2", { maxOutputBytes: 1000 })
          expect(result.exitCode).toBe(0)
          expect(result.stdout.length).toBe(1000)
          expect(result.stdout.startsWith("abcdefgh\n")).toBe(true)
          expect(result).toMatchObject({ stdoutTruncated: true, stderrTruncated: false, stderr: "short\n" })
        }),
      ),
    )

    it.live("kills a command at its timeout (137, timedOut) and the sandbox goes on", () =>
      withSandbox(newRunId(), (sandbox) =>
        Effect.gen(function* () {
          const result = yield* sandbox.exec("echo started; sleep 30; echo never", { timeoutMs: 500 })
          expect(result).toMatchObject({ exitCode: 137, timedOut: true, stdout: "started\n" })
          expect(result.durationMs).toBeLessThan(10_000)
          // The sleep is gone too, not only its shell.
          const ps = yield* sandbox.exec("ps -o args 2>/dev/null || ps ax")
          expect(ps.stdout).not.toContain("sleep 30")
          expect((yield* sandbox.exec(["echo", "after"])).stdout).toBe("after\n")
        }),
      ),
    )

    it.live("a command that leaves a process in the background ends when it exits, not when that process does", () =>
      withSandbox(newRunId(), (sandbox) =>
        Effect.gen(function* () {
          // Docker's engine waits for the output of what a command left behind up to about 2 s.
          const result = yield* sandbox.exec("sleep 30 & echo started")
          expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdout: "started\n" })
          expect(result.durationMs).toBeLessThan(10_000)
        }),
      ),
    )
  })

  describe(`${runtime.name}: files`, () => {
    it.live("writes, reads, and copies files and directories in and out", () =>
      withSandbox(
        newRunId(),
        (sandbox) =>
          Effect.gen(function* () {
            const host = mkdtempSync(join(tmpdir(), "proctor-sandbox-copy-"))
            yield* sandbox.writeFile("notes/a.txt", "alpha\n")
            yield* sandbox.writeFile("/logs/verifier/reward.txt", new Uint8Array([49, 10]))
            expect(Buffer.from((yield* sandbox.readFile("notes/a.txt")) ?? []).toString()).toBe("alpha\n")
            expect((yield* sandbox.exec("cat /logs/verifier/reward.txt")).stdout).toBe("1\n")
            expect(yield* sandbox.readFile("notes/missing.txt")).toBeNull()

            mkdirSync(join(host, "tree/deep/er"), { recursive: true })
            writeFileSync(join(host, "tree/top.txt"), "top")
            writeFileSync(join(host, "tree/deep/er/leaf.sh"), "#!/bin/sh\necho leaf\n", { mode: 0o755 })
            yield* sandbox.copyIn(join(host, "tree"), "/tests")
            expect((yield* sandbox.exec("cat /tests/top.txt; /tests/deep/er/leaf.sh")).stdout).toBe("topleaf\n")
            writeFileSync(join(host, "single.txt"), "one file")
            yield* sandbox.copyIn(join(host, "single.txt"), "inbox/renamed.txt")
            expect((yield* sandbox.exec("cat inbox/renamed.txt")).stdout).toBe("one file")

            yield* sandbox.exec("mkdir -p out/nested && echo made > out/nested/x.txt && echo file > out/f.txt")
            yield* sandbox.copyOut("out", join(host, "copied"))
            expect(readFileSync(join(host, "copied/nested/x.txt"), "utf8")).toBe("made\n")
            yield* sandbox.copyOut("out/f.txt", join(host, "f-copy.txt"))
            expect(readFileSync(join(host, "f-copy.txt"), "utf8")).toBe("file\n")
            const missing = yield* Effect.flip(sandbox.copyOut("nothing-here", join(host, "none")))
            expect(missing.reason).toBe("CopyFailed")
          }),
        { mounts: ["/logs", "/tests"] },
      ),
    )
  })

  describe(`${runtime.name}: teardown`, () => {
    it.live("after success, failure and interrupt nothing is left", () =>
      Effect.gen(function* () {
        const ok = newRunId()
        yield* withSandbox(ok, (sandbox) => sandbox.exec(["true"]))
        expect(runtime.leftovers(ok)).toEqual([])

        const failed = newRunId()
        const exit = yield* Effect.exit(withSandbox(failed, () => Effect.fail("the rollout failed")))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(runtime.leftovers(failed)).toEqual([])

        const interrupted = newRunId()
        const fiber = yield* Effect.fork(withSandbox(interrupted, (sandbox) => sandbox.exec("sleep 60")))
        // Interrupt once the sandbox exists and its command runs.
        yield* waitForEffect(
          "the interrupted sandbox to exist",
          Effect.sync(() => runtime.leftovers(interrupted).length > 0),
          { timeoutMs: 30_000 },
        )
        const started = Date.now()
        yield* Fiber.interrupt(fiber)
        expect(Date.now() - started).toBeLessThan(15_000)
        expect(runtime.leftovers(interrupted)).toEqual([])
      }),
    )

    it.live("prune removes what a kill -9 left, and the interceptor relay goes with the process", () =>
      Effect.gen(function* () {
        const runId = newRunId()
        const socketPath = join(mkdtempSync(join(tmpdir(), "proctor-relay-")), "interceptor.sock")
        const child = spawn(
          process.execPath,
          [fixture("openAndWait.mjs"), runtime.name, runId, socketPath, ...(runtime.fixtureArgs ?? [])],
          {
            stdio: ["ignore", "pipe", "inherit"],
          },
        )
        const opened = yield* Effect.promise(
          () =>
            new Promise<string>((resolve) => child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()))),
        )
        expect(opened).toContain("opened")
        child.kill("SIGKILL")
        yield* Effect.promise(() => new Promise((resolve) => child.once("exit", resolve)))
        expect(runtime.leftovers(runId).length).toBeGreaterThan(0)
        const service = yield* runtime.make
        expect(yield* service.prune(runId)).toEqual({ removed: 1, running: 0 })
        expect(runtime.leftovers(runId)).toEqual([])
        expect(yield* service.prune(runId)).toEqual({ removed: 0, running: 0 })
        yield* waitForEffect(
          "the killed process's relay to exit",
          Effect.sync(() => processesNaming(socketPath).length === 0),
        )
      }).pipe(Effect.scoped),
    )

    it.live("a sandbox killed from outside while in use is Died, not a result", () =>
      Effect.gen(function* () {
        const runId = newRunId()
        yield* withSandbox(runId, (sandbox) =>
          Effect.gen(function* () {
            const running = yield* Effect.fork(sandbox.exec("echo > started; sleep 30"))
            yield* waitForEffect(
              "the command to start",
              sandbox.readFile("started").pipe(Effect.map((file) => file !== null)),
              { timeoutMs: 30_000 },
            )
            runtime.killFromOutside(runId, sandbox.id)
            const error = yield* Effect.flip(Fiber.join(running))
            expect(error.reason).toBe("Died")
            expect((yield* Effect.flip(sandbox.exec(["true"]))).reason).toBe("Died")
          }),
        )
        expect(runtime.leftovers(runId)).toEqual([])
      }),
    )
  })

  describe(`${runtime.name}: limits`, () => {
    it.live("a fork bomb and a 4 GB allocation end only their own sandbox's work", () =>
      Effect.gen(function* () {
        const limits = { pids: 64, memoryMb: 256 }
        yield* withSandbox(
          newRunId(),
          (sandbox) =>
            Effect.gen(function* () {
              const bomb = yield* sandbox.exec("bomb() { bomb | bomb & }; bomb; sleep 2; echo still", {
                timeoutMs: 3_000,
                maxOutputBytes: 10_000,
              })
              // The pids limit holds it: forks fail inside, and the sandbox is still there to answer.
              expect(bomb.stderr).toMatch(/fork|Resource temporarily unavailable/i)
            }),
          { limits },
        )
        yield* withSandbox(
          newRunId(),
          (sandbox) =>
            Effect.gen(function* () {
              const hog = yield* sandbox.exec('x="$(head -c 4000000000 /dev/zero | tr "\\000" a)"; echo "$x" | wc -c', {
                timeoutMs: 60_000,
              })
              expect(hog).toMatchObject({ exitCode: 137, timedOut: false })
              expect((yield* sandbox.exec(["echo", "still here"])).stdout).toBe("still here\n")
            }),
          { limits },
        )
        // And this process, which ran them, is untouched: it goes on to open another.
        yield* withSandbox(newRunId(), (sandbox) => sandbox.exec(["true"]))
      }),
    )
  })

  describe(`${runtime.name}: network`, () => {
    it.live("a sandbox reaches nothing: not the host's loopback, not any address", () =>
      Effect.gen(function* () {
        const { port, connections, close } = yield* Effect.promise(tcpServer)
        yield* Effect.addFinalizer(() => Effect.promise(close))
        const service = yield* runtime.make
        const sandbox = yield* service.open(specFor(newRunId(), runtime.pythonImage))
        yield* sandbox.writeFile("/tmp/connect.py", CONNECT_PY)
        for (const address of ["127.0.0.1", hostAddress(), "1.1.1.1"]) {
          const probe = yield* sandbox.exec(["python3", "/tmp/connect.py", address, String(port)])
          expect(probe.stdout).toContain("refused")
          expect(probe.exitCode).toBe(7)
        }
        expect(connections()).toBe(0)
      }).pipe(Effect.scoped),
    )

    // socat is preferred where installed, Node runs the same relay elsewhere: both must do exactly this.
    it.live.each(["socat", "node"] as const)(
      "with an interceptor, its port reaches the host's unix socket and nothing else does (%s relay)",
      (relay) =>
        Effect.gen(function* () {
          const dir = mkdtempSync(join(tmpdir(), "proctor-relay-"))
          const socketPath = join(dir, "interceptor.sock")
          const server = createHttpServer((request, response) => response.end(`interceptor saw ${request.url}`))
          yield* Effect.promise(() => new Promise<void>((resolve) => server.listen(socketPath, resolve)))
          yield* Effect.addFinalizer(() => Effect.promise(() => new Promise((resolve) => server.close(resolve))))
          const tcp = yield* Effect.promise(tcpServer)
          yield* Effect.addFinalizer(() => Effect.promise(tcp.close))
          const service = yield* runtime.makeWithRelay(relay)
          yield* Effect.gen(function* () {
            const sandbox = yield* service.open(
              specFor(newRunId(), runtime.pythonImage, { network: { interceptor: { socketPath, port: 18231 } } }),
            )
            yield* sandbox.writeFile("/tmp/connect.py", CONNECT_PY)
            const relayed = yield* sandbox.exec(["python3", "/tmp/connect.py", "127.0.0.1", "18231"])
            expect(relayed.stdout).toContain("interceptor saw /probe")
            for (const [address, port] of [
              ["127.0.0.1", tcp.port],
              ["127.0.0.1", 18232],
              [hostAddress(), 18231],
            ] as const) {
              const probe = yield* sandbox.exec(["python3", "/tmp/connect.py", address, String(port)])
              expect(probe.exitCode).toBe(7)
            }
            expect(tcp.connections()).toBe(0)
          }).pipe(Effect.scoped)
          // The relay (and socat's child per connection) goes with the sandbox.
          yield* waitForEffect(
            "the relay's processes to exit",
            Effect.sync(() => processesNaming(socketPath).length === 0),
          )
        }).pipe(Effect.scoped),
    )
  })
}

/** Live processes whose command line names `text` (zombies are gone already). */
const processesNaming = (text: string): Array<number> =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return (
          readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text) &&
          !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"))
        )
      } catch {
        return false
      }
    })
    .map(Number)

/** A TCP server on the host's loopback that counts who reached it. */
const tcpServer = () =>
  new Promise<{ port: number; connections: () => number; close: () => Promise<void> }>((resolve) => {
    let count = 0
    const server = createTcpServer((socket) => {
      count++
      socket.end("HTTP/1.0 200 OK\r\n\r\nhost loopback")
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({
        port: typeof address === "object" && address !== null ? address.port : 0,
        connections: () => count,
        close: () => new Promise((done) => server.close(() => done())),
      })
    })
  })
