import { formatEstimate, formatNumber, formatSignificant, plural } from "../format.js"
import { markdownRow } from "../markdown.js"
import { fitWidths, renderRow, renderSeparator } from "../textLayout.js"
import type { GridComparison, GridPair, GridStanding } from "./gridComparison.js"

const LISTED_FLIPS = 5
const TEST_NAMES = { paired_t: "paired t-tests", mcnemar_exact: "McNemar's exact tests" } as const

const signed = (text: string) => (text.startsWith("-") ? `−${text.slice(1)}` : `+${text}`)
const pText = (p: number | null): string => (p === null ? "-" : p < 0.001 ? "< 0.001" : formatSignificant(p))

const interval = (mean: number | null, ci: readonly [number, number] | null, sign: boolean): string => {
  if (mean === null) return "-"
  const show = sign ? signed : (text: string) => text
  if (ci === null) return show(formatNumber(mean))
  const e = formatEstimate(mean, (ci[1] - ci[0]) / 2)
  return `${show(e.mean)} (${show(e.at(ci[0]))} – ${show(e.at(ci[1]))})`
}

const seedList = (seeds: ReadonlyArray<number>): string =>
  seeds.length === 0
    ? "0"
    : `${seeds.length} (${seeds.slice(0, LISTED_FLIPS).join(", ")}${seeds.length > LISTED_FLIPS ? ", …" : ""})`

const standingRow = (v: GridStanding): ReadonlyArray<string> => [
  String(v.rank),
  v.top_group ? `${v.label} *` : v.label,
  interval(v.mean, v.ci95, false),
  String(v.rollouts),
  String(v.errored),
]

const levelText = (level: number) => `${formatSignificant(level * 100)}%`

const pairRow = (p: GridPair): ReadonlyArray<string> => [
  `${p.a} − ${p.b}`,
  interval(p.diff, p.ci, true),
  levelText(p.ci_level),
  pText(p.p_value),
  pText(p.p_holm),
  p.significant ? "yes" : "no",
  seedList(p.flips.a_only),
  seedList(p.flips.b_only),
]

const STANDING_HEADERS = ["rank", "variant", "mean (95% CI)", "rollouts", "errored"]
const PAIR_HEADERS = ["a − b", "diff (CI)", "CI level", "p", "p Holm", "significant", "passed a only", "passed b only"]

const heading = (c: GridComparison): string =>
  `${plural(c.variants.length, "variant")} over ${plural(c.tasks, "task")} scored in every one` +
  (c.excluded_tasks > 0 ? ` (${plural(c.excluded_tasks, "task")} scored in some only, left out)` : "")

const method = (c: GridComparison): string => {
  const test = c.pairs[0]?.test ?? "paired_t"
  return (
    `${plural(c.pairs.length, "pair")}: ${TEST_NAMES[test]} on the per-task differences, Holm-corrected ` +
    `(family-wise α = ${c.alpha}); each CI is at the level Holm tests its pair at. ` +
    `* = no variant is significantly better. Passes at score ≥ ${c.pass_threshold}.`
  )
}

const textTable = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths: Array<number> = []
  fitWidths(widths, headers)
  for (const row of rows) fitWidths(widths, row)
  return [renderRow(headers, widths), renderSeparator(widths), ...rows.map((row) => renderRow(row, widths))]
    .map((line) => `  ${line.trimEnd()}`)
    .join("\n")
}

/** The ranking and the pairwise table for the terminal, without a trailing newline. */
export const formatGridComparisonText = (c: GridComparison): string =>
  [
    `Compare ${heading(c)}`,
    textTable(STANDING_HEADERS, c.variants.map(standingRow)),
    "",
    textTable(PAIR_HEADERS, c.pairs.map(pairRow)),
    `  ${method(c)}`,
  ].join("\n")

const markdownTableOf = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string =>
  [markdownRow(headers), `| ${headers.map(() => "---").join(" | ")} |`, ...rows.map(markdownRow)].join("\n")

/** The ranking and the pairwise table as one GitHub markdown document. */
export const formatGridComparisonMarkdown = (c: GridComparison): string => {
  const best = c.variants.filter((v) => v.top_group).map((v) => `\`${v.label}\``)
  return `${[
    `### proctor compare — ${heading(c)}`,
    "",
    `Best: ${best.join(", ")}${best.length > 1 ? " (not significantly different from each other)" : ""}`,
    "",
    markdownTableOf(STANDING_HEADERS, c.variants.map(standingRow)),
    "",
    markdownTableOf(PAIR_HEADERS, c.pairs.map(pairRow)),
    "",
    method(c),
  ].join("\n")}\n`
}
