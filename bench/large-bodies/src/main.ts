/**
 * large-bodies: the peak RSS of a whole `proctor eval` process when every rollout answer is huge. A task
 * app (its own process, src/largeBodyTaskApp.ts) answers each of `--seeds` rollouts (default 64) with
 * `--body-mb` MB (default 50); `proctor eval` runs them at `--concurrency` (default 32) under its default
 * `max_response_bytes` (16 MiB), once with each framing: a declared `content-length` (refused before the
 * body is read) and `chunked` (refused as it streams in, at the limit). Target: ≤ 300 MB peak RSS.
 *
 * Flags: --seeds N, --body-mb N, --concurrency N, --max-response-bytes N (passed to proctor),
 * --cli PATH (another build of proctor's `bin.cjs`), --proctor-label TEXT, --compare-cli PATH and
 * --compare-label TEXT (a second build, e.g. a commit before the limit existed, measured the same way and
 * shown beside), --no-write (print the section only).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import {
  argNumber,
  argString,
  describeCommit,
  invokedWith,
  jsonLine,
  loads,
  log,
  mib,
  POSITIVE_INTEGER,
  publishSection,
  startProcess,
  timedNode,
  verdict,
} from "@proctor/bench-shared"

const SEEDS = argNumber("--seeds", 64, POSITIVE_INTEGER)
const BODY_MB = argNumber("--body-mb", 50, POSITIVE_INTEGER)
const CONCURRENCY = argNumber("--concurrency", 32, POSITIVE_INTEGER)
const MAX_RESPONSE_BYTES = argString("--max-response-bytes")
const RSS_TARGET_MB = 300
const FRAMINGS = ["content-length", "chunked"] as const
type Framing = (typeof FRAMINGS)[number]

const SECTION = "## large-bodies"
const TASK_APP = fileURLToPath(new URL("largeBodyTaskApp.js", import.meta.url))
const DEFAULT_CLI = fileURLToPath(new URL("bin.cjs", import.meta.resolve("proctor")))

interface Build {
  readonly cli: string
  readonly label: string
}

const buildOf = (cliFlag: string, labelFlag: string, fallback?: string): Build | null => {
  const given = argString(cliFlag) ?? fallback
  if (given === undefined) return null
  const cli = resolve(given)
  return { cli, label: argString(labelFlag) ?? describeCommit(dirname(cli)) ?? `\`${cli}\`` }
}

const startTaskApp = async (framing: Framing) => {
  const app = await startProcess({
    what: "the task app",
    script: TASK_APP,
    args: [String(BODY_MB * 1_000_000), framing],
    stdinPipe: true,
    ready: jsonLine<{ port: number }>(),
    stopWith: (child) => void child.stdin!.end(),
  })
  return { ...app, url: `http://127.0.0.1:${app.ready.port}` }
}

interface Measurement {
  readonly build: Build
  readonly framing: Framing
  readonly peakRssMb: number
  readonly wallSeconds: number
  readonly cpuSeconds: number
  readonly ok: number
  readonly tooLarge: number
  readonly otherErrors: number
}

interface EvalJson {
  readonly summary: { readonly completed: number; readonly ok: number; readonly errors_by_kind: Record<string, number> }
}

/** One whole `proctor eval` process: its peak RSS, CPU and wall time. */
const measure = async (build: Build, framing: Framing): Promise<Measurement> => {
  const app = await startTaskApp(framing)
  const tmp = mkdtempSync(join(tmpdir(), "proctor-large-bodies-"))
  try {
    const run = await timedNode([
      ...[build.cli, "eval", "--url", app.url],
      ...["--seeds", `0-${SEEDS - 1}`, "--concurrency", String(CONCURRENCY), "--max-retries", "0"],
      ...["--run-dir", join(tmp, "run"), "--json", "--no-intercept"],
      ...(MAX_RESPONSE_BYTES === undefined ? [] : ["--max-response-bytes", MAX_RESPONSE_BYTES]),
    ])
    // The run is invalid when answers are refused (exit 1): what matters is that every rollout completed.
    const { summary } = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as EvalJson
    if (summary.completed !== SEEDS) throw new Error(`proctor eval did not complete every rollout:\n${run.stderrTail}`)
    const tooLarge = summary.errors_by_kind.too_large ?? 0
    return {
      build,
      framing,
      peakRssMb: run.peakRssBytes / 2 ** 20,
      wallSeconds: run.wallMs / 1000,
      cpuSeconds: run.cpuSeconds,
      ok: summary.ok,
      tooLarge,
      otherErrors: summary.completed - summary.ok - tooLarge,
    }
  } finally {
    await app.stop()
    rmSync(tmp, { recursive: true, force: true })
  }
}

const main = async () => {
  const builds = [buildOf("--cli", "--proctor-label", DEFAULT_CLI)!, buildOf("--compare-cli", "--compare-label")]
  const rows: Array<Measurement> = []
  for (const build of builds) {
    if (build === null) continue
    for (const framing of FRAMINGS) {
      log(`${build.label}, ${framing}: ${SEEDS} answers of ${BODY_MB} MB at concurrency ${CONCURRENCY}…`)
      const m = await measure(build, framing)
      log(
        `  peak RSS ${mib(m.peakRssMb * 2 ** 20)} MiB, wall ${m.wallSeconds.toFixed(1)} s, CPU ${m.cpuSeconds.toFixed(1)} s`,
      )
      rows.push(m)
    }
  }
  const limit = MAX_RESPONSE_BYTES === undefined ? "default (16 MiB)" : `${MAX_RESPONSE_BYTES} bytes`
  const quoted = invokedWith()
  const command = `npx -y pnpm@10 run bench:large-bodies${quoted === "" ? "" : ` -- ${quoted}`}`
  const table = [
    "| proctor | framing | peak RSS (MiB) | target ≤ 300 MB | wall (s) | CPU user+sys (s) | too_large | ok | other errors |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (m) =>
        `| ${m.build.label} | ${m.framing} | ${m.peakRssMb.toFixed(0)} | ${verdict(m.peakRssMb * 1.048576 <= RSS_TARGET_MB)} | ${m.wallSeconds.toFixed(1)} | ${m.cpuSeconds.toFixed(1)} | ${m.tooLarge} | ${m.ok} | ${m.otherErrors} |`,
    ),
  ]
  const section = [
    SECTION,
    "",
    `\`${command}\`: peak RSS (GNU time %M) of a whole \`proctor eval --no-intercept\` process whose task app`,
    `(its own process) answers each of ${SEEDS} seeds with ${BODY_MB} MB, at concurrency ${CONCURRENCY}, retries off,`,
    `max_response_bytes ${limit}. \`content-length\`: the answer declares its length and is refused before its`,
    "body is read; `chunked`: no length, so it is refused as it streams in, once the limit is passed — the",
    "bound is then concurrency × the limit. Load average at the end (1 / 5 / 15 min): " + `${loads()}.`,
    "",
    ...table,
    "",
  ].join("\n")
  publishSection(SECTION, section)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
