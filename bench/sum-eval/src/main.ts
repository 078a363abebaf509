/**
 * sum-eval: the 2,000-prompt "sum" eval against an OpenAI-compatible model answering 20 ms late, concurrency 32,
 * as whole processes: `proctor eval` (interception on) against a bare loop driving the same task app and model,
 * and against promptfoo's CLI asking the same model the same questions.
 *
 * The baseline model and the sum task app (sumTaskApp.ts) run as their own processes. Each round runs, in turn,
 * the bare loop (bareLoop.ts), `proctor eval` and, given `--promptfoo DIR`, `promptfoo eval -j 32 --no-cache`
 * (measurements.ts); each under GNU time for CPU and peak RSS, wall time spawn to exit. Writes the `## sum-eval`
 * section of bench/RESULTS.md (other sections are kept) with the limits: proctor within 1.3× of the bare loop,
 * ≥ 8× faster than promptfoo, peak RSS ≤ 150 MB.
 *
 * Flags: --promptfoo DIR (where `npm i promptfoo node@22` ran; absent, promptfoo is not measured), --rounds N
 * (default 5), --prompts N (default 2000), --no-write, --cli PATH (another build's `bin.cjs`), --proctor-label
 * TEXT, --quiet-wait SECONDS (default 60), --retries N (reruns of a disturbed run; default 2).
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type DiscardedAttempt,
  describeProctor,
  jsonLine,
  loads,
  log,
  measureUndisturbed,
  publishSection,
  type StartedProcess,
  startProcess,
  waitForQuiet,
} from "@proctor/bench-shared"
import {
  runBareLoop,
  runBareLoopThroughProxy,
  runProctor,
  runPromptfoo,
  type Sample,
  type Servers,
} from "./measurements.js"
import { findPromptfoo } from "./promptfoo.js"
import { type Round, renderSection } from "./report.js"
import { CLI_BIN, PROMPTFOO_DIR, PROMPTS, QUIET_WAIT_S, RETRIES, ROUNDS, SECTION } from "./settings.js"
import { startModelAndApp } from "./sumServers.js"

const WARM_UP_PROMPTS = 200

const startServers = async (
  env: NodeJS.ProcessEnv,
): Promise<{ servers: Servers; processes: ReadonlyArray<StartedProcess<unknown>> }> => {
  const { model, app } = await startModelAndApp(env)
  const proxy = await startProcess({
    what: "the bare proxy",
    script: new URL("./bareProxyMain.js", import.meta.url).pathname,
    args: [model.ready],
    env,
    ready: jsonLine<{ url: string }>(),
  })
  return {
    servers: {
      modelUrl: model.ready,
      appUrl: app.ready.url,
      proxy: { url: proxy.ready.url, pid: proxy.pid },
      pids: [model.pid, app.pid],
      env,
    },
    processes: [model, app, proxy],
  }
}

const main = async () => {
  const startedAt = new Date()
  const loadBefore = loads()
  const promptfoo = PROMPTFOO_DIR === undefined ? null : findPromptfoo(PROMPTFOO_DIR)
  const work = mkdtempSync(join(tmpdir(), "proctor-sum-eval-"))
  const env = { ...process.env, ENVIRONMENT_API_KEY: randomBytes(16).toString("hex") }
  const { servers, processes } = await startServers(env)
  const rounds: Array<Round> = []
  const discarded: Array<DiscardedAttempt> = []
  try {
    log(`model ${servers.modelUrl}, task app ${servers.appUrl}; proctor ${CLI_BIN}; load average ${loadBefore}`)
    if (promptfoo === null) log("promptfoo not measured: no --promptfoo DIR")
    const bare = (n: number) => runBareLoop(servers, n)
    const proxied = (n: number) => runBareLoopThroughProxy(servers, n)
    const proctor = (n: number) => runProctor(servers, n)
    const promptfooRun = promptfoo === null ? null : (n: number) => runPromptfoo(servers, promptfoo, n, work)

    log(`warm-up: ${WARM_UP_PROMPTS} prompts each`)
    await bare(WARM_UP_PROMPTS)
    await proxied(WARM_UP_PROMPTS)
    await proctor(WARM_UP_PROMPTS)
    await promptfooRun?.(WARM_UP_PROMPTS)

    const retry = {
      retries: RETRIES,
      discarded,
      before: () => waitForQuiet([...servers.pids, servers.proxy.pid], { maxSeconds: QUIET_WAIT_S }),
    }
    const shown = (s: Sample) =>
      `${(s.wallMs / 1000).toFixed(2)} s, ${s.rssMb.toFixed(1)} MB, score ${s.score.toFixed(3)}`
    for (let i = 1; i <= ROUNDS; i++) {
      const round: Round = {
        bare: await measureUndisturbed(`round ${i}: bare loop`, () => bare(PROMPTS), shown, retry),
        proxied: await measureUndisturbed(
          `round ${i}: bare loop through the bare proxy`,
          () => proxied(PROMPTS),
          shown,
          retry,
        ),
        proctor: await measureUndisturbed(`round ${i}: proctor eval`, () => proctor(PROMPTS), shown, retry),
        promptfoo:
          promptfooRun === null
            ? null
            : await measureUndisturbed(`round ${i}: promptfoo eval`, () => promptfooRun(PROMPTS), shown, retry),
      }
      // The same questions to the same deterministic model: the same prompts are answered right.
      const right = [round.bare, round.proxied, round.proctor, round.promptfoo].flatMap((s) =>
        s === null ? [] : [s.score],
      )
      if (new Set(right.map((score) => Math.round(score * PROMPTS))).size !== 1) {
        throw new Error(`the commands' scores disagree: ${right.join(", ")}`)
      }
      rounds.push(round)
    }
  } finally {
    await Promise.all(processes.map((p) => p.stop()))
    rmSync(work, { recursive: true, force: true })
  }
  publishSection(
    SECTION,
    renderSection(rounds, discarded, {
      startedAt,
      proctor: describeProctor(CLI_BIN),
      promptfoo,
      loadBefore,
      loadAfter: loads(),
    }),
  )
}

await main()
