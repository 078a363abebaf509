/**
 * sandbox: what proctor's sandbox runtimes cost over the bare tools doing the same work, in one run, alternating.
 *
 *   (a) Docker: open a sandbox → one command (`true`) → teardown, through `DockerRuntime`, against a bare undici
 *       client making the same Engine API calls (create with the same configuration, start, exec create, exec
 *       start, exec inspect, delete) — bareDocker.ts;
 *   (b) Docker: one command's round trip (`true`) in a running sandbox, the same way;
 *   (c) bubblewrap: open a sandbox (until it takes a command) through `BwrapRuntime`, and open → `true` →
 *       teardown, each against a bare `bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all
 *       --die-with-parent true` from spawn to exit;
 *   (d) proctor's own CPU and memory per concurrent sandbox: --concurrent sandboxes of each runtime open at once,
 *       each running --commands commands; CPU of this process (and, for bwrap, of the helpers it spawns and
 *       reaps) per sandbox, RSS growth per sandbox at the plateau (after a GC);
 *   (e) 64 Harbor tasks with the oracle at concurrency 16 on Docker: `proctor eval --tasks` as a process against
 *       the bare client as a process (bareHarbor.ts), wall time — harborWall.ts.
 * Writes the `## sandbox` section of bench/RESULTS.md (other sections are kept).
 *
 * Flags: --pairs N (a, c; default 20), --exec-pairs N (b; default 40), --concurrent N (default 16),
 * --commands N (default 5), --harbor-copies N (e: copies of each of 4 tasks; default 16), --harbor-runs N (e: runs
 * of each; default 3), --quiet-wait SECONDS (default 60), --no-write.
 */
import { spawnSync } from "node:child_process"
import {
  argNumber,
  cores,
  describeProctor,
  loads,
  log,
  machineDescription,
  measuredAt,
  POSITIVE_INTEGER,
  publishSection,
  ratio,
  verdict,
  waitForQuiet,
} from "@proctor/bench-shared"
import type { SandboxHandle, SandboxRuntimeService, SandboxSpec } from "@proctor/core"
import { BwrapRuntime, DockerRuntime } from "@proctor/sandbox"
import { Effect, Exit, Scope } from "effect"
import { BareDocker } from "./bareDocker.js"
import { harborSummary, harborWall } from "./harborWall.js"
import { alternate, cpuSeconds, type Pairs, type PartTime, run, settledRssMb, summarize } from "./measure.js"

const PAIRS = argNumber("--pairs", 20, POSITIVE_INTEGER)
const EXEC_PAIRS = argNumber("--exec-pairs", 40, POSITIVE_INTEGER)
const CONCURRENT = argNumber("--concurrent", 16, POSITIVE_INTEGER)
const COMMANDS = argNumber("--commands", 5, POSITIVE_INTEGER)
const HARBOR_COPIES = argNumber("--harbor-copies", 16, POSITIVE_INTEGER)
const HARBOR_RUNS = argNumber("--harbor-runs", 3, POSITIVE_INTEGER)
const HARBOR_CONCURRENCY = 16
const HARBOR_TARGET = 1.2
const QUIET_WAIT_S = argNumber("--quiet-wait", 60)
const SECTION = "## sandbox"
const IMAGE = "proctor-busybox"
const DOCKER_TARGET = 1.15
const BWRAP_TARGET = 1.2
const BARE_BWRAP = [
  "bwrap",
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--unshare-all",
  "--die-with-parent",
  "true",
]

const spec = (runId: string): SandboxSpec => ({
  image: { _tag: "Named", name: IMAGE },
  labels: { runId, rolloutId: "bench" },
})

/** Opens a sandbox, runs `true` in it, and tears it down: one rollout's sandbox at its smallest. */
const lifecycle = (runtime: SandboxRuntimeService, runId: string) => () =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(runtime.open(spec(runId)), (sandbox) => sandbox.exec(["true"]))))

/** Opens a sandbox and times that alone (until it takes a command); the teardown after is not counted. */
const openOnly = (runtime: SandboxRuntimeService, runId: string) => async (): Promise<PartTime> => {
  const scope = await Effect.runPromise(Scope.make())
  const started = performance.now()
  await Effect.runPromise(Scope.extend(runtime.open(spec(runId)), scope))
  const partMs = performance.now() - started
  await Effect.runPromise(Scope.close(scope, Exit.void))
  return { partMs }
}

/** `CONCURRENT` sandboxes open at once, each running `COMMANDS` commands; CPU and memory per sandbox. */
const concurrently = async (runtime: SandboxRuntimeService, runId: string) => {
  const rssBefore = settledRssMb()
  const cpuBefore = cpuSeconds()
  const scopes = await Promise.all(Array.from({ length: CONCURRENT }, () => Effect.runPromise(Scope.make())))
  const handles: Array<SandboxHandle> = await Promise.all(
    scopes.map((scope) => Effect.runPromise(Scope.extend(runtime.open(spec(runId)), scope))),
  )
  for (let i = 0; i < COMMANDS; i++) await Promise.all(handles.map((h) => Effect.runPromise(h.exec(["true"]))))
  const rssOpen = settledRssMb()
  await Promise.all(scopes.map((scope) => Effect.runPromise(Scope.close(scope, Exit.void))))
  const cpuAfter = cpuSeconds()
  return {
    cpuMsSelf: ((cpuAfter.self - cpuBefore.self) * 1000) / CONCURRENT,
    cpuMsHelpers: ((cpuAfter.children - cpuBefore.children) * 1000) / CONCURRENT,
    rssMbPerSandbox: (rssOpen - rssBefore) / CONCURRENT,
    rssOpen,
  }
}

/** The bare client's CPU for the same concurrent work (its memory is flat: nothing is kept per container). */
const bareConcurrently = async (bare: BareDocker) => {
  const before = cpuSeconds()
  const ids = await Promise.all(Array.from({ length: CONCURRENT }, () => bare.start(IMAGE)))
  for (let i = 0; i < COMMANDS; i++) await Promise.all(ids.map((id) => bare.exec(id, ["true"])))
  await Promise.all(ids.map((id) => bare.remove(id)))
  return ((cpuSeconds().self - before.self) * 1000) / CONCURRENT
}

const row = (label: string, pairs: Pairs) => {
  const s = summarize(pairs)
  return `| ${label} | ${s.proctor.p50.toFixed(1)} | ${s.bare.p50.toFixed(1)} | **${ratio(s.ratio)}** | ${ratio(s.pairRatio)} | ${s.proctor.p90.toFixed(1)} / ${s.bare.p90.toFixed(1)} | ${s.proctor.n} |`
}

const main = async () => {
  const runId = `bench-${process.pid}`
  const scope = await Effect.runPromise(Scope.make())
  const docker = await Effect.runPromise(Scope.extend(DockerRuntime.make(), scope))
  const bwrap = await Effect.runPromise(BwrapRuntime.make())
  const bare = new BareDocker()
  const startedAt = new Date()
  const loadBefore = loads()
  try {
    const others = await waitForQuiet([], { maxSeconds: QUIET_WAIT_S })
    log(`others at the start: ${cores(others)} cores`)
    const progress = (what: string, of: number) => (done: number) => {
      if (done % 10 === 0 || done === of) log(`${what}: ${done}/${of}`)
    }

    const lifecycles = await alternate(
      PAIRS,
      3,
      lifecycle(docker, runId),
      async () => {
        const id = await bare.start(IMAGE)
        await bare.exec(id, ["true"])
        await bare.remove(id)
      },
      progress("docker create → true → teardown", PAIRS),
    )

    const running = await Effect.runPromise(Scope.extend(docker.open(spec(runId)), scope))
    const bareId = await bare.start(IMAGE)
    const execs = await alternate(
      EXEC_PAIRS,
      5,
      () => Effect.runPromise(running.exec(["true"])),
      () => bare.exec(bareId, ["true"]),
      progress("docker exec round trip", EXEC_PAIRS),
    )
    await bare.remove(bareId)

    const bwrapOpens = await alternate(
      PAIRS,
      3,
      openOnly(bwrap, runId),
      () => run(BARE_BWRAP),
      progress("bwrap start", PAIRS),
    )
    const bwraps = await alternate(
      PAIRS,
      3,
      lifecycle(bwrap, runId),
      () => run(BARE_BWRAP),
      progress("bwrap start → true → teardown", PAIRS),
    )

    const runningBwrap = await Effect.runPromise(Scope.extend(bwrap.open(spec(runId)), scope))
    const bwrapExecs = await alternate(
      EXEC_PAIRS,
      5,
      () => Effect.runPromise(runningBwrap.exec(["true"])),
      () => run(BARE_BWRAP),
      progress("bwrap: true in a running sandbox", EXEC_PAIRS),
    )

    log(`${CONCURRENT} sandboxes at once, ${COMMANDS} commands each`)
    const dockerLoad = await concurrently(docker, runId)
    const bareLoadCpu = await bareConcurrently(bare)
    const bwrapLoad = await concurrently(bwrap, runId)

    log(`${HARBOR_COPIES * 4} oracle tasks at concurrency ${HARBOR_CONCURRENCY}, ${HARBOR_RUNS} runs each`)
    const harbor = await harborWall(HARBOR_COPIES, HARBOR_CONCURRENCY, HARBOR_RUNS, (context) =>
      Effect.runPromise(docker.prepare({ _tag: "Dockerfile", context })),
    )
    const e = harborSummary(harbor)

    const a = summarize(lifecycles)
    const b = summarize(execs)
    const c0 = summarize(bwrapOpens)
    const c = summarize(bwraps)
    const bwrapVersion = spawnSync("bwrap", ["--version"], { encoding: "utf8" }).stdout.trim()
    const dockerVersion = spawnSync("docker", ["version", "--format", "{{.Server.Version}}"], {
      encoding: "utf8",
    }).stdout.trim()
    const section = [
      SECTION,
      "",
      `Measured ${measuredAt(startedAt)} UTC with \`npx -y pnpm@10 run bench:sandbox\` (bench/sandbox); proctor at ${describeProctor()}.`,
      "",
      `Machine: ${machineDescription()}; dockerd ${dockerVersion} (cgroup v1, no bridge network), ${bwrapVersion}. Load average (1/5/15 min) at the start: ${loadBefore}; at the end: ${loads()}.`,
      "",
      `Setup: one process, image \`${IMAGE}\` (busybox-static, imported offline by scripts/sandbox-setup.sh). Each comparison runs in pairs after a few unrecorded ones, proctor's and the bare client's version back to back, the order swapped every pair. *Bare Docker* is undici on the daemon's unix socket making the same Engine API calls with the same container configuration (bench/sandbox/src/bareDocker.ts); proctor's \`DockerRuntime\` also checks the image exists, labels the container, caps output and classifies failures. *Bare bwrap* is \`${BARE_BWRAP.join(" ")}\`, spawn to exit. proctor's \`BwrapRuntime\` starts a long-lived namespace (host root read-only entry by entry, a tmpfs for every writable directory, a recorded sandbox directory, cgroups for memory and pids made while bwrap sets up) whose first process says it is ready and waits; (c0) times that start until the sandbox can take a command, (c) also enters it with \`nsenter\` for \`true\` and tears it down (kills it, waits for bwrap to exit, removes its cgroups and directory). Times are wall milliseconds.`,
      "",
      "| what | proctor p50 (ms) | bare p50 (ms) | ratio of medians | median of pair ratios | p90 proctor / bare (ms) | pairs |",
      "|---|---:|---:|---:|---:|---:|---:|",
      row("(a) Docker: create → `true` → teardown", lifecycles),
      row("(b) Docker: `true` in a running sandbox", execs),
      row("(c0) bubblewrap: start, until it takes a command", bwrapOpens),
      row("(c) bubblewrap: start → `true` → teardown", bwraps),
      row("(c′) bubblewrap: `true` in a running sandbox (nsenter) vs a bare `bwrap … true`", bwrapExecs),
      "",
      `(d) ${CONCURRENT} sandboxes open at once, ${COMMANDS} commands (\`true\`) each, then torn down; proctor's CPU per sandbox is this process's user + system time over the whole run ÷ ${CONCURRENT}, *helpers* the processes it spawned and reaped (bwrap, nsenter, sh; Docker has none without an interceptor relay); memory is the growth of this process's RSS (after a GC) with all ${CONCURRENT} open.`,
      "",
      "| runtime | proctor CPU per sandbox (ms) | helpers' CPU per sandbox (ms) | bare client's CPU per sandbox (ms) | RSS per open sandbox (MB) |",
      "|---|---:|---:|---:|---:|",
      `| Docker | ${dockerLoad.cpuMsSelf.toFixed(1)} | ${dockerLoad.cpuMsHelpers.toFixed(1)} | ${bareLoadCpu.toFixed(1)} | ${dockerLoad.rssMbPerSandbox.toFixed(2)} |`,
      `| bubblewrap | ${bwrapLoad.cpuMsSelf.toFixed(1)} | ${bwrapLoad.cpuMsHelpers.toFixed(1)} | – | ${bwrapLoad.rssMbPerSandbox.toFixed(2)} |`,
      "",
      `(e) ${harbor.tasks} Harbor tasks (${HARBOR_COPIES} copies each of examples/tasks find-the-secret, hello-file, reverse-words and sum-numbers, all \`FROM proctor-busybox\`) with the oracle at concurrency ${harbor.concurrency} on Docker, each side a process of its own timed from spawn to exit, ${HARBOR_RUNS} runs each in the order proctor, bare, bare, proctor, …; every run's ${harbor.tasks} rewards checked to be 1. *proctor* is \`node packages/cli/dist/bin.cjs eval --tasks DIR --agent oracle --sandbox docker --concurrency ${harbor.concurrency} --run-dir TMP --json\`: per task it opens a sandbox (its \`/logs\` directories and the instruction in one archive upload), copies \`solution/\` in and runs \`solve.sh\`, copies \`tests/\` in and runs \`test.sh\`, reads the reward, removes the container, and records results, steps and traces in the run directory. *Bare* (bench/sandbox/src/bareHarbor.ts) is undici on the socket doing the same per task with the same container configuration: image inspect, create, start, one upload of \`solution/\` with \`/logs/verifier\`, exec \`solve.sh\`, upload \`tests/\`, exec \`test.sh\`, read \`reward.txt\` (\`reward.json\` when absent), delete. Neither builds: each side's image (\`proctor-env:<hash>\`, \`proctor-bench-bare:<hash>\`) is built before the first timed run and found by every task.`,
      "",
      "| what | proctor median (s) | bare median (s) | ratio of medians | proctor runs (s) | bare runs (s) | CPU median proctor / bare (s) |",
      "|---|---:|---:|---:|---|---|---:|",
      `| (e) ${harbor.tasks} oracle tasks, concurrency ${harbor.concurrency}, Docker | ${e.proctor.toFixed(1)} | ${e.bare.toFixed(1)} | **${ratio(e.ratio)}** | ${harbor.proctorS.map((x) => x.toFixed(1)).join(", ")} | ${harbor.bareS.map((x) => x.toFixed(1)).join(", ")} | ${e.proctorCpu.toFixed(2)} / ${e.bareCpu.toFixed(2)} |`,
      "",
      "Targets:",
      "",
      `- (a) Docker create → one command → teardown ≤ ${DOCKER_TARGET}× the bare client (median): ${ratio(a.ratio)} — ${verdict(a.ratio <= DOCKER_TARGET)}.`,
      `- (b) a command's round trip in a running sandbox ≤ ${DOCKER_TARGET}× bare (median): ${ratio(b.ratio)} — ${verdict(b.ratio <= DOCKER_TARGET)}.`,
      `- (c0) bubblewrap's start ≤ ${BWRAP_TARGET}× a bare \`bwrap\` spawn (median): ${ratio(c0.ratio)} — ${verdict(c0.ratio <= BWRAP_TARGET)}.`,
      `- (c) is not the target's measure, kept for comparison with earlier runs: start → \`true\` → teardown, ${ratio(c.ratio)}. A proctor bubblewrap sandbox is a namespace that lives for the rollout (so a command's background processes and /tmp outlast it, as in a container, and the interceptor relay has one network namespace to listen in); opening one, entering it for \`true\` and tearing it down is three process starts where the bare spawn is one. Each later command costs one \`nsenter\` (c′): ${ratio(summarize(bwrapExecs).ratio)} a bare \`bwrap\` spawn.`,
      `- (e) ${harbor.tasks} oracle tasks at concurrency ${harbor.concurrency} ≤ ${HARBOR_TARGET}× the bare client's wall time (median): ${ratio(e.ratio)} — ${verdict(e.ratio <= HARBOR_TARGET)}.`,
      "",
      "Where proctor's time goes beyond the bare tools':",
      "",
      "- (c0): proctor binds the host's installed software (`/usr`, `/etc`, `/opt`, links for `/bin`, `/sbin`, `/lib*`) one entry at a time, read-only, and makes empty tmpfs for `/tmp`, `/run`, `/var`, `/root` and `/home`, where the bare spawn binds `/` once; it then waits for the sandbox's first process to say it is ready (bwrap's `--info-fd` and `--json-status-fd` name the child before its mounts exist, so they cannot say it). One `--ro-bind / /` cannot stand in: bwrap could then make no mount point (`/app`, `/logs`) in a read-only root, and proctor could not copy `/tests` and `/solution` into it.",
      "- (e): per task proctor makes one archive upload more than the bare client (`/logs` and the instruction as the sandbox opens; the bare client folds `/logs/verifier` into its solution upload and writes no instruction), and as a process it also starts the CLI, journals results, steps and traces, and draws progress: the CPU column shows that share.",
      "",
    ].join("\n")
    publishSection(SECTION, section)
  } finally {
    await bare.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await Effect.runPromise(docker.prune(runId)).catch(() => 0)
    await Effect.runPromise(bwrap.prune(runId)).catch(() => 0)
  }
}

await main()
