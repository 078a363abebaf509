import { existsSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { LocalRuntime } from "../src/sandbox/LocalRuntime.js"
import type { SandboxSpec } from "../src/sandbox/Sandbox.js"

const spec = (extra: Partial<SandboxSpec> = {}): SandboxSpec => ({
  image: { _tag: "Named", name: "ignored" },
  labels: { runId: "local-runtime-test", rolloutId: "r1" },
  ...extra,
})

const runtime = LocalRuntime.make()

describe("LocalRuntime", () => {
  it.live("maps Harbor's absolute paths under its root and removes it on teardown", () =>
    Effect.gen(function* () {
      let root = ""
      yield* Effect.scoped(
        Effect.gen(function* () {
          const sandbox = yield* runtime.open(spec())
          root = sandbox.id
          expect(sandbox.workdir).toBe("/app")
          yield* sandbox.writeFile("/logs/verifier/reward.txt", "1\n")
          const seen = yield* sandbox.exec('cat "$SANDBOX_ROOT/logs/verifier/reward.txt"; pwd')
          expect(seen.stdout).toBe(`1\n${root}/app\n`)
          yield* sandbox.writeFile("note.txt", "relative to /app")
          expect(Buffer.from((yield* sandbox.readFile("/app/note.txt")) ?? []).toString()).toBe("relative to /app")
          expect(yield* sandbox.readFile("/nothing/here")).toBeNull()
        }),
      )
      expect(root).not.toBe("")
      expect(existsSync(root)).toBe(false)
    }),
  )

  it.live("kills a command's whole process group at its timeout, and cuts long output", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const sandbox = yield* runtime.open(spec())
        const started = Date.now()
        const slow = yield* sandbox.exec("sleep 30 & sleep 30; echo never", { timeoutMs: 200 })
        expect(Date.now() - started).toBeLessThan(5_000)
        expect(slow).toMatchObject({ timedOut: true, exitCode: 137, stdout: "" })
        const long = yield* sandbox.exec("head -c 5000 /dev/zero | tr '\\0' x", { maxOutputBytes: 100 })
        expect(long.stdout).toBe("x".repeat(100))
        expect(long.stdoutTruncated).toBe(true)
        const exit = yield* sandbox.exec(["sh", "-c", "echo oops >&2; exit 7"])
        expect(exit).toMatchObject({ exitCode: 7, stderr: "oops\n", timedOut: false })
      }),
    ),
  )

  it.live("gives commands none of proctor's environment, only what the sandbox is given", () =>
    Effect.scoped(
      Effect.gen(function* () {
        process.env.PROCTOR_TEST_SECRET = "sk-must-not-leak"
        try {
          const sandbox = yield* runtime.open(spec({ env: { GIVEN: "yes" } }))
          const env = yield* sandbox.exec("env", { env: { PER_COMMAND: "1" } })
          expect(env.stdout).not.toContain("sk-must-not-leak")
          expect(env.stdout).toContain("GIVEN=yes")
          expect(env.stdout).toContain("PER_COMMAND=1")
        } finally {
          delete process.env.PROCTOR_TEST_SECRET
        }
      }),
    ),
  )

  it.live("applies memory_mb as a limit on what a command may allocate", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const sandbox = yield* runtime.open(spec({ limits: { memoryMb: 64 } }))
        const hog = yield* sandbox.exec(`python3 -c "b = bytearray(512 * 1024 * 1024); print('allocated')"`)
        expect(hog.exitCode).not.toBe(0)
        expect(hog.stdout).not.toContain("allocated")
      }),
    ),
  )
})
