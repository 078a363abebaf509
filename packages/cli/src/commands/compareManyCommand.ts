import { existsSync, statSync } from "node:fs"
import { join } from "node:path"
import { ConfigError, isGridRunDir, readGridManifest, variantRunDir } from "@proctor/core"
import { compareMany, formatGridComparisonMarkdown, formatGridComparisonText, type GridSide } from "@proctor/report"
import { Effect } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { CompareOptions } from "../program/compare.js"
import { compareCommand, readRunTotals } from "./compareCommand.js"

const usage = (message: string) => new ConfigError({ reason: "InvalidValue", message })

/** One argument's runs: a grid's variants (named by variant, or `dir/variant` beside other runs), or one run. */
const runsOf = (arg: string, single: boolean) =>
  Effect.gen(function* () {
    if (!existsSync(arg) || !statSync(arg).isDirectory()) {
      return yield* usage(`${arg}: no such run directory (comparing several runs reads run directories only)`)
    }
    if (!isGridRunDir(arg)) return [{ label: arg, dir: arg }]
    const manifest = yield* readGridManifest(arg)
    return manifest.variants.map(({ name }) => ({
      label: single ? name : join(arg, name),
      dir: variantRunDir(arg, name),
    }))
  })

/**
 * `proctor compare RUN` on a grid run, or `proctor compare A B C …`: every variant (or run) ranked over the seeds
 * all of them scored, every pair compared and Holm-corrected (@proctor/report's `compareMany`). Flips pass at the
 * first run's threshold.
 */
export const compareManyCommand = (
  args: ReadonlyArray<string>,
  options: CompareOptions,
  io: Io,
): Effect.Effect<ExitCode> =>
  Effect.gen(function* () {
    if (options.json === true && options.markdown === true) {
      return yield* usage("--json and --markdown each choose the output: pass one of them")
    }
    if (options.failIfWorse === true) {
      return yield* usage("--fail-if-worse gates one candidate against one baseline: compare two runs (A B) for it")
    }
    if (options.backend !== undefined) {
      return yield* usage("--backend: comparing a grid or three or more runs reads run directories only")
    }
    const runs = (yield* Effect.forEach(args, (arg) => runsOf(arg, args.length === 1))).flat()
    if (runs.length < 2) {
      return yield* usage(`${args[0]}: is a single run; give a grid run directory, or two or more run directories`)
    }
    const labels = new Set<string>()
    for (const run of runs) {
      if (labels.has(run.label)) return yield* usage(`${run.label} is given twice`)
      labels.add(run.label)
    }
    const read = yield* Effect.forEach(runs, (run) => Effect.map(readRunTotals(run.dir), (side) => ({ run, side })))
    const sides: Array<GridSide> = read.map(({ run, side }) => ({ label: run.label, totals: side.totals }))
    const comparison = compareMany(sides, { passThreshold: read[0]!.side.passThreshold })
    if (comparison.tasks === 0) return yield* usage("no seed is scored in every run: nothing to compare")
    io.stdout.write(
      options.json === true
        ? `${JSON.stringify(comparison, null, 2)}\n`
        : options.markdown === true
          ? formatGridComparisonMarkdown(comparison)
          : `${formatGridComparisonText(comparison)}\n`,
    )
    return ExitCode.Ok
  }).pipe(
    Effect.catchTags({
      ConfigError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor compare: ${error.message}\n`)
          return ExitCode.Usage
        }),
      StoreError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor compare: ${error.message}\n`)
          return error.reason === "Io" ? ExitCode.Failed : ExitCode.Usage
        }),
    }),
  )

/** `proctor compare`: two runs as A and B (the two-run comparison), else a grid run or several runs ranked. */
export const compareRunsCommand = (
  args: ReadonlyArray<string>,
  options: CompareOptions,
  io: Io,
): Effect.Effect<ExitCode> =>
  args.length === 2 && !args.some(isGridRunDir)
    ? compareCommand(args[0]!, args[1]!, options, io)
    : compareManyCommand(args, options, io)
