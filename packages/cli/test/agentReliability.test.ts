import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { connect, createServer, type Server, type Socket } from "node:net"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { agentRunFixture, resultRows } from "./fixtures/agentRuns.js"
import { type CliProcess, cleanEnv, filesUnder, nonEmptyLines, runCli, startCli } from "./fixtures/harness.js"

/**
 * Agent runs under failure, with the real Docker engine and bubblewrap: `kill -9` of `proctor eval` at many points
 * then `--resume`; a container killed from outside mid-rollout; the model key and the host's network out of a
 * sandbox's reach.
 */

const run = promisify(execFile)

const shared = agentRunFixture("agent-reliability")

interface Row {
  readonly seed: number
  readonly attempt: number
  readonly task_id: string
  readonly score: number | null
  readonly status: string
  readonly error_kind: string | null
  readonly retries: number
  readonly stop_reason?: string
  readonly retry_log?: ReadonlyArray<{ readonly kind: string; readonly error: string }>
}

const rowsOf = (runDir: string) => resultRows<Row>(runDir)

interface TaskFiles {
  readonly instruction?: string
  readonly solve: string
  readonly test: string
}

/** A Harbor-format task on the busybox base image, written under `tasksDir/name`. */
const writeTask = (tasksDir: string, name: string, files: TaskFiles): void => {
  const dir = join(tasksDir, name)
  for (const sub of ["environment", "solution", "tests"]) mkdirSync(join(dir, sub), { recursive: true })
  writeFileSync(
    join(dir, "task.toml"),
    [
      'version = "1.0"',
      "[verifier]",
      "timeout_sec = 30.0",
      "[agent]",
      "timeout_sec = 60.0",
      "[environment]",
      "build_timeout_sec = 120.0",
      "cpus = 1",
      "memory_mb = 256",
      "storage_mb = 512",
      "",
    ].join("\n"),
  )
  writeFileSync(join(dir, "instruction.md"), files.instruction ?? `Task ${name}.\n`)
  writeFileSync(join(dir, "environment/Dockerfile"), "FROM proctor-busybox\nWORKDIR /app\n")
  writeFileSync(join(dir, "solution/solve.sh"), `#!/bin/sh\n${files.solve}\n`, { mode: 0o755 })
  writeFileSync(join(dir, "tests/test.sh"), `#!/bin/sh\n${files.test}\n`, { mode: 0o755 })
}

/** The verifier of the tasks whose solution writes `done.txt`. */
const DONE_TEST =
  "if [ -f /app/done.txt ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi"

/** Ids of the containers (running or not) labelled with the run. */
const containersOf = async (runId: string, running = false): Promise<Array<string>> => {
  const { stdout } = await run("docker", [
    "ps",
    ...(running ? [] : ["-a"]),
    "-q",
    "--filter",
    `label=proctor.run=${runId}`,
  ])
  return stdout.split("\n").filter(Boolean)
}

/** Waits until `check` holds, polling (each check may call Docker); gives up when the CLI exits first. */
const until = (what: string, check: () => Promise<boolean> | boolean, cli: CliProcess | null) =>
  waitFor(what, check, {
    timeoutMs: 60_000,
    abortIf: () =>
      cli !== null && (cli.child.exitCode !== null || cli.child.signalCode !== null)
        ? `proctor exited: ${cli.stderr().slice(-2000)}`
        : undefined,
  })

const runIdOf = (runDir: string): string => JSON.parse(readFileSync(join(runDir, "config.json"), "utf8")).run_id

/** Waits for the run directory's config.json (written before any rollout starts) and returns its run id. */
const awaitRunId = async (runDir: string, cli: CliProcess): Promise<string> => {
  await until("config.json", () => existsSync(join(runDir, "config.json")), cli)
  return runIdOf(runDir)
}

const killed = async (cli: CliProcess): Promise<void> => {
  cli.child.kill("SIGKILL")
  const result = await cli.done
  expect(result.signal, result.stderr).toBe("SIGKILL")
}

describe("kill -9 of an agent run on Docker, then --resume", () => {
  it("every key exactly once after 10 kills, and no container of the run left", async () => {
    const TASKS = 16
    const tasksDir = join(shared.tmp, "kill-tasks")
    for (let i = 0; i < TASKS; i++) {
      writeTask(tasksDir, `t${String(i).padStart(2, "0")}`, { solve: "sleep 1\necho ok > done.txt", test: DONE_TEST })
    }
    const runDir = join(shared.tmp, "killed")
    const env = cleanEnv()
    const journalLength = () => nonEmptyLines(join(runDir, "results.jsonl")).length

    let cli = startCli(
      [
        "eval",
        "--tasks",
        tasksDir,
        "--agent",
        "oracle",
        "--sandbox",
        "docker",
        "--concurrency",
        "2",
        "--run-dir",
        runDir,
      ],
      { env },
    )
    const runId = await awaitRunId(runDir, cli)
    const kills: Array<{ readonly results: number; readonly leftovers: number; readonly beforeAnyResult: boolean }> = []
    for (let session = 0; session < 10; session++) {
      const before = journalLength()
      const stale = new Set(await containersOf(runId))
      // Even sessions (the first run among them) die as soon as one of their own sandboxes runs, before any
      // result of theirs; odd ones after their first result (at most 2 land at once: concurrency 2).
      const beforeAnyResult = session % 2 === 0
      if (beforeAnyResult) {
        await until(
          "a sandbox of this session",
          async () => (await containersOf(runId, true)).some((id) => !stale.has(id)),
          cli,
        )
      } else {
        await until("a result of this session", () => journalLength() > before, cli)
        // The session before was killed with a sandbox of its own running (not being removed): this resume
        // removed it before new work, and says so.
        expect(cli.stderr()).toMatch(/removed \d+ sandbox(es)? an earlier session of this run left/)
      }
      await killed(cli)
      const leftovers = await containersOf(runId)
      kills.push({ results: journalLength(), leftovers: leftovers.length, beforeAnyResult })
      if (beforeAnyResult) expect(leftovers.length, `session ${session}`).toBeGreaterThan(0)
      expect(journalLength()).toBeLessThan(TASKS)
      cli = startCli(["eval", "--resume", runDir], { env })
    }
    const last = await cli.done
    expect(last.code, last.stderr).toBe(0)
    // The kills landed at different points of the run.
    expect(new Set(kills.map((kill) => kill.results)).size).toBeGreaterThanOrEqual(5)

    const lines = nonEmptyLines(join(runDir, "results.jsonl"))
    const rows = lines.map((line) => JSON.parse(line) as Row)
    expect(rows).toHaveLength(TASKS)
    expect(new Set(rows.map((row) => `${row.seed}:${row.attempt}`)).size).toBe(TASKS)
    expect(rows.map((row) => row.seed).sort((a, b) => a - b)).toEqual(Array.from({ length: TASKS }, (_, i) => i))
    expect(rows.every((row) => row.score === 1 && row.status === "ok")).toBe(true)
    const summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8"))
    expect(summary).toMatchObject({ planned: TASKS, completed: TASKS, missing: 0 })
    expect(await containersOf(runId)).toEqual([])
  }, 240_000)
})

describe("a sandbox killed from outside mid-rollout", () => {
  const slowTask = (name: string) => {
    const tasksDir = join(shared.tmp, name)
    writeTask(tasksDir, "slow", { solve: "sleep 4\necho ok > done.txt", test: DONE_TEST })
    return tasksDir
  }

  /** `docker kill`s the run's first container while the oracle's `sleep 4` runs in it; returns its id. */
  const killFirstSandbox = async (runDir: string, cli: CliProcess): Promise<{ runId: string; victim: string }> => {
    const runId = await awaitRunId(runDir, cli)
    let victim = ""
    await until(
      "the agent's command running in a sandbox",
      async () => {
        const [id] = await containersOf(runId, true)
        if (id === undefined) return false
        const top = await run("docker", ["top", id]).catch(() => ({ stdout: "" }))
        if (!/sleep 4/.test(top.stdout)) return false
        victim = id
        return true
      },
      cli,
    )
    await run("docker", ["kill", victim])
    return { runId, victim }
  }

  it("is retried as a sandbox error, and the row's score comes from the retry", async () => {
    const runDir = join(shared.tmp, "outside-kill")
    const cli = startCli(
      [
        "eval",
        "--tasks",
        slowTask("outside-kill-tasks"),
        "--agent",
        "oracle",
        "--sandbox",
        "docker",
        "--run-dir",
        runDir,
      ],
      { env: cleanEnv() },
    )
    const { runId, victim } = await killFirstSandbox(runDir, cli)
    const result = await cli.done
    expect(result.code, result.stderr).toBe(0)
    const [row, ...more] = rowsOf(runDir)
    expect(more).toEqual([])
    expect(row!.retries).toBeGreaterThanOrEqual(1)
    expect(row!.retry_log?.[0]?.kind, JSON.stringify(row)).toBe("sandbox")
    expect(row).toMatchObject({ status: "ok", error_kind: null, score: 1 })
    // The retry ran in another container: the steps of the scored try name no command of the dead one's.
    const steps = nonEmptyLines(join(runDir, "steps.jsonl")).map((line) => JSON.parse(line))
    expect(steps.some((step) => step.retry >= 1)).toBe(true)
    expect(steps.find((step) => String(step.text ?? "").startsWith("reward"))?.retry).toBeGreaterThanOrEqual(1)
    expect(victim).not.toBe("")
    expect(await containersOf(runId)).toEqual([])
  }, 120_000)

  it("with --max-retries 0 it is an error row of kind sandbox, never scored", async () => {
    const runDir = join(shared.tmp, "outside-kill-no-retry")
    const cli = startCli(
      [
        "eval",
        "--tasks",
        slowTask("outside-kill-no-retry-tasks"),
        "--agent",
        "oracle",
        "--sandbox",
        "docker",
        "--max-retries",
        "0",
        "--run-dir",
        runDir,
      ],
      { env: cleanEnv() },
    )
    const { runId } = await killFirstSandbox(runDir, cli)
    await cli.done
    const [row, ...more] = rowsOf(runDir)
    expect(more).toEqual([])
    expect(row, JSON.stringify(row)).toMatchObject({ score: null, error_kind: "sandbox", retries: 0 })
    expect(row!.status).not.toBe("ok")
    expect(await containersOf(runId)).toEqual([])
  }, 120_000)
})

describe("a fork bomb and a 4 GB allocation", () => {
  for (const sandbox of ["docker", "bwrap"] as const) {
    it(`${sandbox}: end only their own rollout; the run goes on and a sound task beside them scores 1`, async () => {
      const tasksDir = join(shared.tmp, `limits-${sandbox}`)
      writeTask(tasksDir, "bomb", { solve: "bomb() { bomb | bomb & }; bomb; sleep 2", test: DONE_TEST })
      writeTask(tasksDir, "hog", {
        solve: "awk 'BEGIN { s = \"x\"; while (length(s) < 4 * 1024 * 1024 * 1024) s = s s }' && echo ok > done.txt",
        test: DONE_TEST,
      })
      writeTask(tasksDir, "sound", { solve: "echo ok > done.txt", test: DONE_TEST })
      const runDir = join(shared.tmp, `limits-run-${sandbox}`)
      const result = await runCli(
        [
          "eval",
          "--tasks",
          tasksDir,
          "--agent",
          "oracle",
          "--sandbox",
          sandbox,
          "--max-retries",
          "0",
          "--concurrency",
          "3",
          "--run-dir",
          runDir,
        ],
        { env: cleanEnv() },
      )
      expect(result.signal, result.stderr).toBeNull()
      expect([0, 1], result.stderr).toContain(result.code)
      const rows = Object.fromEntries(rowsOf(runDir).map((row) => [row.task_id, row]))
      expect(Object.keys(rows).sort()).toEqual(["bomb", "hog", "sound"])
      expect(rows.sound).toMatchObject({ score: 1, status: "ok" })
      // The allocation was killed inside its sandbox: a graded 0, never a score of 1 nor a crash of proctor.
      expect(rows.hog, JSON.stringify(rows.hog)).toMatchObject({ score: 0, status: "ok" })
      expect(rows.bomb!.score, JSON.stringify(rows.bomb)).not.toBe(1)
      // The bomb's script returned when it exited: the forks it left behind did not hold the agent to its timeout.
      expect(rows.bomb!.stop_reason).not.toBe("max_time")
      if (sandbox === "docker") expect(await containersOf(runIdOf(runDir))).toEqual([])
    }, 120_000)
  }
})

describe("what a sandbox can reach", () => {
  let listener: Server
  let port = 0
  let connections = 0
  const sockets = new Set<Socket>()

  beforeAll(async () => {
    listener = createServer((socket) => {
      connections++
      sockets.add(socket)
      socket.once("close", () => sockets.delete(socket))
      socket.end("HTTP/1.0 200 OK\r\n\r\nhost\n")
    })
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve))
    port = (listener.address() as { port: number }).port
  })

  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => listener.close(() => resolve()))
  })

  /**
   * The baseline policy runs each hint line in order. The secret's prefix is split in the commands so that the
   * instruction (which the sandbox holds) never spells it; the dumps and the grep look for that prefix.
   */
  const probeInstruction = (hostPort: number) =>
    [
      "Look around.",
      "",
      "Hint: `env > /logs/agent/env.txt`",
      "Hint: `ps -o pid,args > /logs/agent/ps.txt 2>&1; echo ps-done >> /logs/agent/ps.txt`",
      "Hint: `cat /proc/[0-9]*/cmdline /proc/[0-9]*/environ > /logs/agent/proc.txt 2>/dev/null; echo proc-done >> /logs/agent/proc.txt`",
      'Hint: `p=sk-test-; grep -rl "$p"SECRET /app /logs /shared.tmp /root /home /run /etc > /logs/agent/files.txt 2>/dev/null; echo files-done >> /logs/agent/files.txt`',
      `Hint: \`busybox wget -q -T 3 -O /logs/agent/wget.txt http://127.0.0.1:${hostPort}/; echo "wget exit $?" > /logs/agent/net.txt\``,
      `Hint: \`echo x | busybox nc -w 3 127.0.0.1 ${hostPort}; echo "nc exit $?" >> /logs/agent/net.txt\``,
      "",
    ].join("\n")

  /** Reward 1 only when every dump was made, none holds the secret's prefix, and the host's port was unreachable. */
  const PROBE_TEST = [
    'p=sk-test-; s="$p"SECRET',
    "reward=1",
    'grep -q "^PATH=" /logs/agent/env.txt || { echo "no env dump"; reward=0; }',
    'for f in ps proc files; do grep -q "$f-done" /logs/agent/$f.txt 2>/dev/null || { echo "no $f dump"; reward=0; }; done',
    'grep -l "$s" /logs/agent/env.txt /logs/agent/ps.txt /logs/agent/proc.txt && reward=0',
    "grep -v files-done /logs/agent/files.txt && reward=0",
    "grep -l host /logs/agent/wget.txt 2>/dev/null && reward=0",
    'grep "wget exit 0" /logs/agent/net.txt && reward=0',
    'grep -q "nc exit" /logs/agent/net.txt || { echo "no nc"; reward=0; }',
    "echo $reward > /logs/verifier/reward.txt",
  ].join("\n")

  for (const sandbox of ["docker", "bwrap"] as const) {
    it(`${sandbox}: the real model key is in no environment, process or file of the sandbox; the host's port is out of reach`, async () => {
      const secret = `sk-test-SECRET-${randomBytes(12).toString("hex")}`
      const tasksDir = join(shared.tmp, `probe-${sandbox}`)
      writeTask(tasksDir, "probe", { instruction: probeInstruction(port), solve: "true", test: PROBE_TEST })
      const runDir = join(shared.tmp, `probe-run-${sandbox}`)
      const before = connections
      const result = await runCli(
        [
          "eval",
          "--tasks",
          tasksDir,
          "--agent",
          "builtin",
          "--model",
          "baseline",
          "--inference-url",
          shared.model.url,
          "--sandbox",
          sandbox,
          "--run-dir",
          runDir,
        ],
        { env: cleanEnv({ PROCTOR_UPSTREAM_API_KEY: secret }) },
      )
      expect(result.code, result.stderr).toBe(0)
      // The key proctor sends upstream is this one.
      expect(result.stderr).toContain("PROCTOR_UPSTREAM_API_KEY")
      const [row, ...more] = rowsOf(runDir)
      expect(more).toEqual([])
      // Every hint ran (6 commands, then done) and their records are in the run directory.
      const steps = readFileSync(join(runDir, "steps.jsonl"), "utf8")
      const verifier = nonEmptyLines(join(runDir, "steps.jsonl")).find((line) => line.includes("/tests/test.sh"))
      expect(row, verifier).toMatchObject({ score: 1, status: "ok", error_kind: null })
      expect(steps).toContain("files-done")
      expect(steps).toContain("nc exit")
      for (const file of filesUnder(runDir)) expect(readFileSync(file, "utf8"), file).not.toContain(secret)
      expect(result.stdout + result.stderr).not.toContain(secret)
      expect(connections).toBe(before)

      // The listener does count a connection from the host itself: its silence above means something.
      await new Promise<void>((resolve, reject) =>
        connect(port, "127.0.0.1")
          .on("error", reject)
          .on("close", () => resolve())
          .resume(),
      )
      expect(connections).toBe(before + 1)
    }, 120_000)
  }
})
