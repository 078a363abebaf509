import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import {
  argNumber,
  argString,
  loads,
  log,
  mib,
  POSITIVE_INTEGER,
  printed,
  ratio,
  startProcess,
  timedNode,
} from "@proctor/bench-shared"
import { writeStoredRun } from "./storedRun.js"

/**
 * Graders, as whole processes on this machine:
 * (a) a rule-graded dataset eval of `--rows` sum questions (`proctor eval --dataset … --grader equals`, interception
 *     on) against a bare loop making the same model calls at the same concurrency (`bareDatasetLoop.ts`), the
 *     baseline model answering `--latency-ms` late in a process of its own; target ≤ 1.3× the bare loop's wall time;
 * (c) the same eval with a rubric judge as well (the baseline model judging), against the bare loop making the same
 *     policy and judge calls per row; target ≤ 1.2×;
 * (b) `proctor grade` of a stored run of `--stored` rollouts with a rule grader; target ≥ 20,000 rollouts/s, and its
 *     peak RSS against the same grade of a run a tenth the size (flat memory: about the same), left to V8's own heap
 *     sizing and again with the heap held to `HEAP_CAP_MIB` (both sizes must finish within it: what they keep does
 *     not grow with the rollouts).
 * Prints its figures; it writes no RESULTS.md section (the lead runs the benches together).
 */
const rowsCount = argNumber("--rows", 2000, POSITIVE_INTEGER)
const stored = argNumber("--stored", 100_000, POSITIVE_INTEGER)
const latencyMs = argNumber("--latency-ms", 20)
const concurrency = argNumber("--concurrency", 32, POSITIVE_INTEGER)

const cli = resolve(argString("--cli") ?? fileURLToPath(new URL("bin.cjs", import.meta.resolve("proctor"))))
const baselineMain = fileURLToPath(new URL("../../../examples/baseline-model/dist/main.js", import.meta.url))
const bareLoop = fileURLToPath(new URL("./bareDatasetLoop.js", import.meta.url))

/** A heap every grade must fit in, whatever the run's size: what a grade keeps alive does not grow with its rollouts. */
const HEAP_CAP_MIB = 36

const tmp = mkdtempSync(join(tmpdir(), "proctor-bench-graders-"))
try {
  log(`load before: ${loads()}`)
  const model = await startProcess({
    what: "the baseline model",
    script: baselineMain,
    env: { ...process.env, PORT: "0", BASELINE_LATENCY_MS: String(latencyMs) },
    ready: printed(/listening on (http\S+)/),
  })
  const url = model.ready
  const dataset = join(tmp, "sums.jsonl")
  writeFileSync(
    dataset,
    Array.from({ length: rowsCount }, (_, i) => {
      const a = (i * 37) % 1000
      const b = (i * 53) % 1000
      return JSON.stringify({ id: i + 1, question: `What is ${a} + ${b}?`, answer: String(a + b) })
    }).join("\n"),
  )
  /** `proctor eval --dataset` of the rows, graded by `equals` and the `graders` flags given, as a whole process. */
  const datasetEval = async (runDir: string, graders: ReadonlyArray<string> = []) => {
    const run = await timedNode([
      cli,
      ...["eval", "--dataset", dataset, "--prompt", "{{ item.question }}", "--model", "baseline"],
      ...["--inference-url", url, "--grader", "equals", ...graders],
      ...["--concurrency", String(concurrency), "--run-dir", join(tmp, runDir), "--json"],
    ])
    if (run.code !== 0) throw new Error(`proctor eval (${runDir}) exited ${run.code}: ${run.stderrTail}`)
    return run
  }
  const bare = await timedNode([bareLoop, dataset, url, String(concurrency)])
  const proctor = await datasetEval("run")
  log(
    `(a) ${rowsCount} rows, concurrency ${concurrency}, model +${latencyMs} ms: bare loop ${bare.wallMs.toFixed(0)} ms ` +
      `(${mib(bare.peakRssBytes)} MiB, ${bare.cpuSeconds.toFixed(2)} s CPU), proctor eval --dataset ${proctor.wallMs.toFixed(0)} ms ` +
      `(${mib(proctor.peakRssBytes)} MiB, ${proctor.cpuSeconds.toFixed(2)} s CPU): ${ratio(proctor.wallMs / bare.wallMs)} ` +
      `(target ≤ 1.30×); CPU ${ratio(proctor.cpuSeconds / bare.cpuSeconds)} (the steadier figure on a loaded machine)`,
  )

  // (c) the same rows judged by a rubric judge (the baseline model as judge): proctor against the bare loop making the
  // same two calls per row.
  const rubric = "The answer is the correct sum, as a bare number."
  const bareJudged = await timedNode([bareLoop, dataset, url, String(concurrency), rubric])
  const judged = await datasetEval("judged", [
    ...["--grader", `{ type = "rubric", rubric = "${rubric}" }`],
    ...["--judge", `{ model = "baseline", inference_url = "${url}" }`],
  ])
  await model.stop()
  log(
    `(c) the same ${rowsCount} rows with a rubric judge (two calls a row): bare loop ${bareJudged.wallMs.toFixed(0)} ms ` +
      `(${bareJudged.cpuSeconds.toFixed(2)} s CPU), proctor ${judged.wallMs.toFixed(0)} ms (${judged.cpuSeconds.toFixed(2)} s CPU): ` +
      `${ratio(judged.wallMs / bareJudged.wallMs)} (target ≤ 1.20×); CPU ${ratio(judged.cpuSeconds / bareJudged.cpuSeconds)}`,
  )
  const storedRuns = new Map<number, string>()
  const grade = async (rollouts: number, name: string, node: ReadonlyArray<string> = []) => {
    let runDir = storedRuns.get(rollouts)
    if (runDir === undefined) {
      runDir = writeStoredRun(join(tmp, `stored-${rollouts}`), rollouts)
      storedRuns.set(rollouts, runDir)
    }
    const set = ["--name", name, "--grader", '{ type = "numeric", name = "close" }', "--json"]
    const run = await timedNode([...node, cli, "grade", runDir, ...set])
    if (run.code !== 0) throw new Error(`proctor grade (${name}) exited ${run.code}: ${run.stderrTail}`)
    return run
  }
  const tenth = Math.max(1, Math.floor(stored / 10))
  const small = await grade(tenth, "free")
  const large = await grade(stored, "free")
  const capped = [`--max-old-space-size=${HEAP_CAP_MIB}`]
  const smallCapped = await grade(tenth, "capped", capped)
  const largeCapped = await grade(stored, "capped", capped)
  log(
    `(b) proctor grade of ${stored} stored rollouts: ${large.wallMs.toFixed(0)} ms whole process, ` +
      `${Math.round(stored / (large.wallMs / 1000)).toLocaleString("en-US")} rollouts/s (target ≥ 20,000), ` +
      `${large.cpuSeconds.toFixed(2)} s CPU (${Math.round(stored / large.cpuSeconds).toLocaleString("en-US")} rollouts per CPU second); peak RSS ` +
      `${mib(large.peakRssBytes)} MiB against ${mib(small.peakRssBytes)} MiB for a tenth of them; with the heap held to ` +
      `${HEAP_CAP_MIB} MiB both finish, ${largeCapped.wallMs.toFixed(0)} ms and ${mib(largeCapped.peakRssBytes)} MiB against ` +
      `${smallCapped.wallMs.toFixed(0)} ms and ${mib(smallCapped.peakRssBytes)} MiB`,
  )
  log(`load after: ${loads()} (a shared machine: figures are indicative)`)
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
