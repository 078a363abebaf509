/**
 * runner-overhead: how much throughput `proctor eval` gives up against the bare HTTP loops it is built on,
 * and how much memory it needs for a large run.
 *
 * Against one zero-work task app in its own process, alternating and repeating each measurement:
 *   1. a bare undici `Pool` loop (64 connections, 64 workers),
 *   2. a bare `node:http` keep-alive loop (`http.Agent`, maxSockets 64),
 *   3. the same `node:http` loop as a process of its own, and `proctor eval` as a child process (in-run throughput
 *      and whole-process wall time): a pair of whole processes, each round's pair in the other order,
 * then `proctor eval` of 100,000 and of 1,000,000 seeds for its peak RSS (memory flat in the size of the run). Writes the `## runner-overhead` section of
 * bench/RESULTS.md (other sections are kept).
 *
 * Flags (for quick trials and A/B runs): --rollouts N, --rounds N, --warmup N, --rss-seeds N,N…, --no-write,
 * --cli PATH (another build of proctor's `bin.cjs`, e.g. a checkout of an older commit), --proctor-label TEXT
 * (how RESULTS.md names the proctor measured; default: the git commit of the CLI's checkout),
 * --quiet-wait SECONDS (how long to wait for the machine to go quiet before each measurement; default 60),
 * --retries N (how many times a measurement disturbed by other processes is run again; default 3).
 */
import {
  type DiscardedAttempt,
  describeProctor,
  int,
  loads,
  log,
  measureUndisturbed,
  type ProctorRun,
  publishSection,
  runProctorEval,
  startZeroWorkTaskApp,
  waitForQuiet,
  type ZeroWorkTaskApp,
} from "@proctor/bench-shared"
import { bareNodeHttp, bareNodeHttpProcess, bareUndici, type LoopRun, type WholeProcessRun } from "./bareLoops.js"
import { type Round, renderSection } from "./report.js"
import {
  CLI_BIN,
  CONCURRENCY,
  QUIET_WAIT_S,
  RETRIES,
  ROLLOUTS,
  ROUNDS,
  RSS_SEEDS,
  SECTION,
  WARMUP,
} from "./settings.js"

const runProctor = (app: ZeroWorkTaskApp, seeds: number) => runProctorEval(CLI_BIN, app, seeds, CONCURRENCY)

const main = async () => {
  const startedAt = new Date()
  const loadBefore = loads()
  const app = await startZeroWorkTaskApp()
  try {
    const health = await fetch(`${app.origin}/health`)
    if (health.status !== 200) throw new Error(`task app /health answered ${health.status}`)
    log(`task app on ${app.origin} (its own process); proctor CLI ${CLI_BIN}; load average ${loadBefore}`)

    const warmSeeds = Math.min(WARMUP, 2_000)
    log(`warm-up: ${WARMUP} requests per bare loop, one proctor eval of ${warmSeeds} seeds`)
    await bareUndici(app, WARMUP)
    await bareNodeHttp(app, WARMUP)
    await runProctor(app, warmSeeds)
    await bareNodeHttpProcess(app, warmSeeds)

    const discarded: Array<DiscardedAttempt> = []
    const retry = { retries: RETRIES, discarded, before: () => waitForQuiet([app.pid], { maxSeconds: QUIET_WAIT_S }) }
    const loop = (r: LoopRun) => `${int(r.throughput)}/s`
    const wholeLoop = (r: WholeProcessRun) => `${int(r.wallThroughput)}/s whole process (${r.wallSeconds.toFixed(2)} s)`
    const proctorRun = (r: ProctorRun) =>
      `${int(r.inRunThroughput)}/s in-run, ${int(r.wallThroughput)}/s whole process (${r.wallSeconds.toFixed(2)} s), ` +
      `${r.peakRssMb.toFixed(1)} MB`
    const rounds: Array<Round> = []
    for (let i = 1; i <= ROUNDS; i++) {
      const undici = await measureUndisturbed(
        `round ${i}: bare undici Pool`,
        () => bareUndici(app, ROLLOUTS),
        loop,
        retry,
      )
      const nodeHttp = await measureUndisturbed(
        `round ${i}: bare node:http`,
        () => bareNodeHttp(app, ROLLOUTS),
        loop,
        retry,
      )
      const bareProcess = () =>
        measureUndisturbed(
          `round ${i}: bare node:http, whole process`,
          () => bareNodeHttpProcess(app, ROLLOUTS),
          wholeLoop,
          retry,
        )
      const proctorEval = () =>
        measureUndisturbed(`round ${i}: proctor eval`, () => runProctor(app, ROLLOUTS), proctorRun, retry)
      // The whole-process pair goes in the other order each round, so neither always runs on a warmer machine.
      const bareFirst = i % 2 === 1
      let nodeHttpProcess: WholeProcessRun
      let proctor: ProctorRun
      if (bareFirst) {
        nodeHttpProcess = await bareProcess()
        proctor = await proctorEval()
      } else {
        proctor = await proctorEval()
        nodeHttpProcess = await bareProcess()
      }
      rounds.push({ undici, nodeHttp, nodeHttpProcess, proctor, bareFirst })
    }
    const rss: Array<ProctorRun> = []
    for (const seeds of RSS_SEEDS) {
      rss.push(
        await measureUndisturbed(`peak RSS: ${int(seeds)} seeds`, () => runProctor(app, seeds), proctorRun, retry),
      )
    }
    const info = { startedAt, proctor: describeProctor(CLI_BIN), loadBefore, loadAfter: loads() }
    publishSection(SECTION, renderSection(rounds, rss, discarded, info))
  } finally {
    await app.stop()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:runner failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
})
