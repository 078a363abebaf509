import { cpus, release, totalmem } from "node:os"
import { dirname } from "node:path"
import { argString, describeCommit } from "./cli.js"
import { cores } from "./format.js"
import { REPO_ROOT } from "./resultsFile.js"
import type { DiscardedAttempt } from "./retry.js"
import { fillTemplate, readTemplates } from "./template.js"

const templates = readTemplates(new URL("../templates/", import.meta.url), ["invoked-as"])

/** `2026-11-24 00:39`: when a section was measured (UTC). */
export const measuredAt = (date: Date): string => date.toISOString().slice(0, 16).replace("T", " ")

/** `2 cores (AMD EPYC), 24 GiB, Linux 6.18, Node v20.20.2`. */
export const machineDescription = (): string => {
  const cpu = cpus()
  const model = cpu[0]?.model.replace(/\s+/g, " ").trim() ?? "unknown CPU"
  return `${cpu.length} cores (${model}), ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`
}

/**
 * The flags this bench was given, shell-quoted where needed, as RESULTS.md shows them: `pnpm run bench:x -- FLAGS`
 * passes the `--` through, and --proctor-label is shown as the label itself, so both are left out.
 */
export const invokedWith = (): string => {
  const args = process.argv.slice(2).filter((a) => a !== "--")
  const shown: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--proctor-label") {
      i++
      continue
    }
    const a = args[i]!
    shown.push(/^[\w./:=@-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)
  }
  return shown.join(" ")
}

/** Which proctor was measured: --proctor-label, else the git commit of the checkout holding `cliBin` (or this one). */
export const describeProctor = (cliBin?: string): string =>
  argString("--proctor-label") ??
  describeCommit(cliBin === undefined ? REPO_ROOT : dirname(cliBin)) ??
  (cliBin === undefined ? "(not in a git checkout)" : `\`${cliBin}\` (not in a git checkout)`)

/** ` as \`node bench/BENCH/dist/main.js FLAGS\``, when the bench was given flags (see `invokedWith`), else nothing. */
export const invokedAs = (bench: string, args: string): string =>
  args === "" ? "" : fillTemplate(templates["invoked-as"], { bench, args })

/** `round 2 proctor 9,120/s (others 0.31); …`: the attempts run again, as a section lists them. */
export const discardedList = (discarded: ReadonlyArray<DiscardedAttempt>): string =>
  discarded.map((d) => `${d.label} ${d.figure} (others ${cores(d.otherCores)})`).join("; ")

/** When and where a section was measured, and which proctor: the figures every section's first lines show. */
export const runFigures = (info: {
  readonly startedAt: Date
  readonly proctor: string
  readonly loadBefore: string
  readonly loadAfter: string
}) => ({
  measured_at: measuredAt(info.startedAt),
  proctor: info.proctor,
  machine: machineDescription(),
  load_before: info.loadBefore,
  load_after: info.loadAfter,
})
