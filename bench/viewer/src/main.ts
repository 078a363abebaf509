/**
 * viewer: `proctor view` on a 100,000-rollout run as a user feels it, whole process.
 *
 * Generates (once, kept in --dir) a run directory of --rollouts rollouts with --calls model calls each, written
 * by core's own writer, then:
 *   1. spawns `node packages/cli/dist/bin.cjs view DIR` and times it until it prints its URL;
 *   2. opens the URL's table (`#/rollouts`) in Chromium and times from the page request to the first row on screen
 *      (`[data-testid=rollout-row]`);
 *   3. opens one rollout deep in the run (`#/rollouts/SEED/0`) and times until its transcript is on screen
 *      (`[data-testid=rollout-view] [data-testid=model-message]`);
 *   4. reads the view process's peak RSS (VmHWM) before stopping it with Ctrl-C;
 * and reports the run directory's size (and what its model calls would weigh with every call's whole
 * conversation stored). Also times the API calls behind 2 and 3 directly. Writes the `## viewer` section of
 * bench/RESULTS.md.
 *
 * Flags: --rollouts N (100000), --calls N per rollout (5), --dir DIR (default $TMPDIR/proctor-bench-viewer),
 * --rounds N (3), --no-write, --cli PATH.
 */
import { spawnSync } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import {
  argNumber,
  argString,
  describeCommit,
  loads,
  log,
  median,
  mib,
  POSITIVE_INTEGER,
  printed,
  procMemory,
  publishSection,
  ratio,
  startProcess,
  verdict,
} from "@proctor/bench-shared"
import { launchChromium } from "@proctor/browser-test"
import { Effect } from "effect"
import { generateRun } from "./generateRun.js"

const ROLLOUTS = argNumber("--rollouts", 100_000, POSITIVE_INTEGER)
const CALLS = argNumber("--calls", 5, POSITIVE_INTEGER)
const ROUNDS = argNumber("--rounds", 3, POSITIVE_INTEGER)
const DIR = resolve(argString("--dir") ?? join(tmpdir(), `proctor-bench-viewer-${ROLLOUTS}x${CALLS}`))
const CLI_BIN = resolve(argString("--cli") ?? fileURLToPath(new URL("bin.cjs", import.meta.resolve("proctor"))))
const SECTION = "## viewer"
const FIRST_ROWS_TARGET_MS = 1_000
const OPEN_ROLLOUT_TARGET_MS = 200
const RSS_TARGET_MB = 150
const PAGE_TIMEOUT_MS = 30_000

interface Round {
  /** The browser's floor: a one-element static page from a local server, requested to on screen. */
  readonly staticPageMs: number
  readonly startMs: number
  readonly firstRowsMs: number | null
  readonly openRolloutMs: number | null
  readonly apiFirstPageMs: number
  readonly apiRolloutMs: number
  readonly peakRssMb: number
}

/** `proctor view DIR` as a whole process, timed until it prints its URL (the run's index built). */
const startView = async () => {
  const t0 = performance.now()
  const view = await startProcess({
    what: "proctor view",
    script: CLI_BIN,
    args: ["view", DIR],
    ready: printed(/proctor view: (http\S+)/),
    stopWith: (child) => void child.kill("SIGINT"),
  })
  return { view, url: view.ready, startMs: performance.now() - t0 }
}

const timed = async (what: () => Promise<unknown>) => {
  const t0 = performance.now()
  await what()
  return performance.now() - t0
}

const fetchOk = async (url: string) => {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
  return response.json()
}

/** A static page's one element on screen, in the same browser: what any page costs here before its own work. */
const staticPageMs = async (chromium: Awaited<ReturnType<typeof launchChromium>>) => {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end('<!doctype html><link rel="icon" href="data:,"><p data-testid="static">static</p>')
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    const page = await chromium.newPage()
    const t0 = performance.now()
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    await page.locator('[data-testid="static"]').waitFor({ timeout: PAGE_TIMEOUT_MS })
    const ms = performance.now() - t0
    await page.close()
    return ms
  } finally {
    server.close()
  }
}

const round = async (seed: number): Promise<Round> => {
  const { view, url, startMs } = await startView()
  const chromium = await launchChromium()
  let firstRowsMs: number | null = null
  let openRolloutMs: number | null = null
  let floorMs = Number.NaN
  try {
    floorMs = await staticPageMs(chromium)
    const page = await chromium.newPage()
    const t0 = performance.now()
    // The table's own route: what a user opens to see the rows.
    await page.goto(`${url}#/rollouts`)
    try {
      await page.locator('[data-testid="rollout-row"]').first().waitFor({ timeout: PAGE_TIMEOUT_MS })
      firstRowsMs = performance.now() - t0
      const t1 = performance.now()
      // Run in the page; `location` is the page's (this file is compiled without the DOM's types).
      await page.evaluate(`location.hash = "#/rollouts/${seed}/0"`)
      await page
        .locator(`[data-testid="rollout-view"][data-seed="${seed}"] [data-testid="model-message"]`)
        .first()
        .waitFor({ timeout: PAGE_TIMEOUT_MS })
      openRolloutMs = performance.now() - t1
    } catch (error) {
      log(
        `the page did not show rows or the rollout (${(error as Error).message.split("\n")[0]}): page timings left out`,
      )
    }
    await page.close()
  } finally {
    await chromium.close()
  }
  // What the page asks for, timed on their own: its first rows, and one rollout.
  const apiFirstPageMs = await timed(() => fetchOk(`${url}api/runs/0/rows?from=0&limit=500`))
  const apiRolloutMs = await timed(() => fetchOk(`${url}api/runs/0/rollouts/${seed}/0`))
  const rss = (procMemory(view.pid)?.hwm ?? Number.NaN) / 2 ** 20
  await view.stop()
  const code = await view.exited
  if (code !== 0) throw new Error(`proctor view exited ${code} on Ctrl-C`)
  return { staticPageMs: floorMs, startMs, firstRowsMs, openRolloutMs, apiFirstPageMs, apiRolloutMs, peakRssMb: rss }
}

const duBytes = (path: string) => Number(spawnSync("du", ["-sb", path], { encoding: "utf8" }).stdout.split("\t")[0])

const main = async () => {
  log(`generating (or reusing) ${ROLLOUTS} rollouts × ${CALLS} calls in ${DIR} …`)
  const t0 = performance.now()
  const generated = await Effect.runPromise(generateRun(DIR, ROLLOUTS, CALLS))
  log(`run directory ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const rounds: Array<Round> = []
  for (let i = 0; i < ROUNDS; i++) {
    const seed = Math.floor(ROLLOUTS * (0.3 + (0.6 * i) / ROUNDS))
    rounds.push(await round(seed))
    log(`round ${i + 1}: ${JSON.stringify(rounds.at(-1))}`)
  }
  const med = (pick: (r: Round) => number | null) => {
    const values = rounds.map(pick).filter((v): v is number => v !== null)
    return values.length === 0 ? null : median(values)
  }
  const figure = (value: number | null, limit: number, unit: string) =>
    value === null
      ? `not measured (the page showed no rows) | ${limit} ${unit} | – | –`
      : `${value.toFixed(unit === "MB" ? 1 : 0)} ${unit} | ${limit} ${unit} | ${ratio(value / limit)} | ${verdict(value <= limit)}`
  const dirBytes = duBytes(DIR)
  const callsBytes = duBytes(join(DIR, "model_calls.jsonl"))
  const section = [
    SECTION,
    "",
    `\`npx -y pnpm@10 run bench:viewer\` (${describeCommit(dirname(CLI_BIN)) ?? CLI_BIN}; ${ROUNDS} rounds, medians; load ${loads()}).`,
    `A run directory of ${ROLLOUTS.toLocaleString("en-US")} rollouts and ${generated.calls.toLocaleString("en-US")} model calls (${CALLS} per rollout, each request holding the conversation so far), written by core's writer; \`proctor view DIR\` as a whole process, the page in Chromium.`,
    "",
    "| measure | figure | limit | ratio | |",
    "| --- | --- | --- | --- | --- |",
    `| first table rows on screen, after the page is requested | ${figure(
      med((r) => r.firstRowsMs),
      FIRST_ROWS_TARGET_MS,
      "ms",
    )} |`,
    `| one rollout opened (\`#/rollouts/SEED/0\` → its messages on screen) | ${figure(
      med((r) => r.openRolloutMs),
      OPEN_ROLLOUT_TARGET_MS,
      "ms",
    )} |`,
    `| \`proctor view\` peak RSS | ${figure(
      med((r) => r.peakRssMb),
      RSS_TARGET_MB,
      "MB",
    )} |`,
    "",
    `- the browser's floor, in the same Chromium and round: a one-element static page from a local server, requested to on screen, ${med((r) => r.staticPageMs)?.toFixed(0)} ms (first rows took ${ratio((med((r) => r.firstRowsMs) ?? Number.NaN) / (med((r) => r.staticPageMs) ?? Number.NaN))} as long).`,
    `- \`proctor view\` start to its URL printed (the index of the run built): ${med((r) => r.startMs)?.toFixed(0)} ms.`,
    `- API alone: first page of 500 rows ${med((r) => r.apiFirstPageMs)?.toFixed(1)} ms; one rollout with its ${CALLS} calls ${med((r) => r.apiRolloutMs)?.toFixed(1)} ms.`,
    `- run directory: ${mib(dirBytes)} MiB, of which model_calls.jsonl ${mib(callsBytes)} MiB; with every call's whole conversation stored it would be ${mib(generated.fullFormCallBytes)} MiB (${ratio(callsBytes / generated.fullFormCallBytes)}).`,
    "",
  ].join("\n")
  publishSection(SECTION, section)
}

await main()
