import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BwrapRuntime } from "../src/index.js"
import { describeRuntime, fixture, newRunId } from "./sandboxContract.js"

// The tests' own registry: their sandboxes are recorded there and nowhere else.
const registryRoot = mkdtempSync(join(tmpdir(), "proctor-bwrap-test-"))

interface Record {
  readonly childPid: number
  readonly bwrapPid: number
  readonly cgroups: ReadonlyArray<string>
}

const records = (runId: string): Array<{ dir: string; record: Record | null }> => {
  const runDir = join(registryRoot, encodeURIComponent(runId))
  if (!existsSync(runDir)) return []
  return readdirSync(runDir).map((name) => {
    const dir = join(runDir, name)
    try {
      return { dir, record: JSON.parse(readFileSync(join(dir, "sandbox.json"), "utf8")) as Record }
    } catch {
      return { dir, record: null }
    }
  })
}

const leftovers = (runId: string): Array<string> => [
  // The run's directory goes with its last sandbox.
  ...(existsSync(join(registryRoot, encodeURIComponent(runId))) ? [`run directory of ${runId}`] : []),
  ...records(runId).flatMap(({ dir, record }) => [
    `directory ${dir}`,
    ...(record === null
      ? []
      : [record.childPid, record.bwrapPid].filter((pid) => pid > 0 && existsSync(`/proc/${pid}`))
    ).map((pid) => `process ${pid}`),
    ...(record?.cgroups ?? []).filter(existsSync).map((cgroup) => `cgroup ${cgroup}`),
  ]),
]

describeRuntime({
  name: "bwrap",
  make: BwrapRuntime.make({ registryRoot }),
  makeWithRelay: (relay) => BwrapRuntime.make({ registryRoot, relay }),
  image: { _tag: "Named", name: "ignored" },
  pythonImage: { _tag: "Named", name: "ignored" },
  leftovers,
  fixtureArgs: [registryRoot],
  killFromOutside: (runId, sandboxId) => {
    const found = records(runId).find(({ dir }) => dir.endsWith(sandboxId))
    if (found?.record) process.kill(found.record.childPid, "SIGKILL")
  },
})

describe("bwrap: storage", () => {
  it.live("a write past storageMb fails in the workdir, the mounts and /tmp, and the sandbox goes on", () =>
    Effect.gen(function* () {
      const runtime = yield* BwrapRuntime.make({ registryRoot })
      const sandbox = yield* runtime.open({
        image: { _tag: "Named", name: "ignored" },
        workdir: "/app",
        mounts: ["/logs/verifier"],
        limits: { storageMb: 2 },
        labels: { runId: newRunId(), rolloutId: "r0" },
      })
      for (const dir of ["/app", "/logs/verifier", "/tmp"]) {
        const write = yield* sandbox.exec(["dd", "if=/dev/zero", `of=${dir}/big`, "bs=1024", "count=4096"])
        expect(write.exitCode, dir).not.toBe(0)
        expect(write.stderr).toMatch(/No space left on device/)
      }
      expect((yield* sandbox.exec("rm /app/big && echo 1 > /app/small && cat /app/small")).stdout).toBe("1\n")
    }).pipe(Effect.scoped),
  )
})

describe("bwrap: what a sandbox sees of the host", () => {
  it.live("the host's software read-only; its data (this checkout, /var, homes) not at all", () =>
    Effect.gen(function* () {
      const runtime = yield* BwrapRuntime.make({ registryRoot })
      const sandbox = yield* runtime.open({
        image: { _tag: "Named", name: "ignored" },
        workdir: "/app",
        labels: { runId: newRunId(), rolloutId: "r0" },
      })
      expect((yield* sandbox.exec("python3 -c 'print(6 * 7)'")).stdout).toBe("42\n")
      const write = yield* sandbox.exec("touch /usr/proctor-probe")
      expect(write.stderr).toMatch(/Read-only file system/)
      // This test file lives in a checkout on the host: outside the software, so not there.
      expect((yield* sandbox.exec(["test", "-e", import.meta.dirname])).exitCode).toBe(1)
      expect((yield* sandbox.exec("ls -A /var /root /home")).stdout).toBe("/home:\n\n/root:\n\n/var:\ntmp\n")
      expect((yield* sandbox.exec("echo x > /var/tmp/x && cat /var/tmp/x")).stdout).toBe("x\n")
    }).pipe(Effect.scoped),
  )
})

describe("bwrap: prune without a run", () => {
  /** A process of its own holding one sandbox of `runId` open until it is killed. */
  const holder = (runId: string) =>
    Effect.acquireRelease(
      Effect.promise(async () => {
        const socketPath = join(mkdtempSync(join(tmpdir(), "proctor-relay-")), "interceptor.sock")
        const child = spawn(process.execPath, [fixture("openAndWait.mjs"), "bwrap", runId, socketPath, registryRoot], {
          stdio: ["ignore", "pipe", "inherit"],
        })
        await new Promise((resolve) => child.stdout.once("data", resolve))
        return child
      }),
      (child) => Effect.sync(() => child.kill("SIGKILL")),
    )

  it.live("removes what a killed process left and leaves the sandboxes of a process still running", () =>
    Effect.gen(function* () {
      const [killed, running] = [newRunId(), newRunId()]
      const killedHolder = yield* holder(killed)
      yield* holder(running)
      killedHolder.kill("SIGKILL")
      yield* Effect.promise(() => new Promise((resolve) => killedHolder.once("exit", resolve)))
      const runtime = yield* BwrapRuntime.make({ registryRoot })
      expect(yield* runtime.prune()).toEqual({ removed: 1, running: 1 })
      expect(leftovers(killed)).toEqual([])
      expect(leftovers(running)).not.toEqual([])
      // Named by its run, a running process's sandbox goes too.
      expect(yield* runtime.prune(running)).toEqual({ removed: 1, running: 0 })
      expect(leftovers(running)).toEqual([])
    }).pipe(Effect.scoped),
  )
})
