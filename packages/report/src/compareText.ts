import type { CompareDelta, Comparison } from "./compare.js"
import {
  formatEstimate,
  formatInteger,
  formatMs,
  formatNumber,
  formatSignificant,
  formatUsd,
  plural,
} from "./format.js"
import { markdownRow } from "./markdown.js"

const signed = (text: string) => (text.startsWith("-") ? `−${text.slice(1)}` : `+${text}`)

const TEST_NAMES = { paired_t: "paired t-test", mcnemar_exact: "McNemar's exact test" } as const
const LISTED_FLIPS = 10

const pText = (p: number): string => (p < 0.001 ? "p < 0.001" : `p = ${formatSignificant(p)}`)

/** The verdict in words: what a reader of a CI log needs first. */
export const comparisonVerdict = (c: Comparison): string => {
  const test = `${TEST_NAMES[c.test]}, ${c.p_value === null ? "" : pText(c.p_value)}`
  switch (c.verdict) {
    case "b_better":
      return `${c.labels.b} is significantly better than ${c.labels.a} (${test})`
    case "b_worse":
      return `${c.labels.b} is significantly worse than ${c.labels.a} (${test})`
    case "no_significant_difference":
      return `no significant difference (${test} ≥ ${c.alpha})`
    case "too_few_pairs":
      return `too few pairs to test (${plural(c.pairs, "seed")} scored in both runs; at least 2 are needed)`
  }
}

const score = (c: Comparison): string => {
  if (c.mean_a === null || c.mean_b === null || c.diff === null) return "-"
  const means = `A ${formatNumber(c.mean_a)} · B ${formatNumber(c.mean_b)}`
  if (c.ci95 === null) return `${means} · B − A ${signed(formatNumber(c.diff))}`
  const e = formatEstimate(c.diff, (c.ci95[1] - c.ci95[0]) / 2)
  return `${means} · B − A ${signed(e.mean)} ± ${e.half} (95% CI ${signed(e.at(c.ci95[0]))} – ${signed(e.at(c.ci95[1]))})`
}

const seedList = (seeds: ReadonlyArray<number>): string =>
  seeds.length === 0
    ? ""
    : `: ${seeds.slice(0, LISTED_FLIPS).join(", ")}${seeds.length > LISTED_FLIPS ? `, … (${seeds.length - LISTED_FLIPS} more)` : ""}`

const flips = (c: Comparison): string =>
  `${c.flips.a_only.length} passed in A only${seedList(c.flips.a_only)} · ` +
  `${c.flips.b_only.length} passed in B only${seedList(c.flips.b_only)}`

const perRollout = (d: CompareDelta, show: (n: number) => string, unreported: string): string => {
  const side = (x: number | null) => (x === null ? unreported : show(x))
  const change =
    d.diff === null || d.a === null
      ? ""
      : ` (${signed(show(d.diff))}${d.a !== 0 ? `, ${signed(formatSignificant((d.diff / d.a) * 100))}%` : ""})`
  return `A ${side(d.a)} · B ${side(d.b)} per rollout${change}`
}

const excluded = (c: Comparison): string => {
  const e = c.excluded
  return (
    `${plural(e.errored, "errored rollout")} (A ${e.errored_a}, B ${e.errored_b}) · ` +
    `${plural(e.unmatched, "seed")} scored in one run only (A ${e.unmatched_a}, B ${e.unmatched_b})`
  )
}

/** The comparison as labelled lines, shared by the terminal block and the markdown table. */
export const comparisonItems = (c: Comparison): ReadonlyArray<readonly [label: string, value: string]> => [
  ["verdict", comparisonVerdict(c)],
  ["score", score(c)],
  [
    "pairs",
    `${plural(c.pairs, "seed")} scored in both runs (${plural(c.rollouts.a, "rollout")} in A, ${c.rollouts.b} in B)`,
  ],
  [
    "power",
    c.mde80 === null
      ? "-"
      : `80% power to detect a difference of ±${formatSignificant(c.mde80)} or more with these pairs (α = ${c.alpha})`,
  ],
  ["correlation", c.correlation === null ? "-" : formatNumber(c.correlation)],
  ["flips", flips(c)],
  ["tokens", perRollout(c.deltas.tokens, formatInteger, "unreported")],
  ["cost", perRollout(c.deltas.cost_usd, formatUsd, "unpriced")],
  ["latency ms", perRollout(c.deltas.latency_ms, formatMs, "-")],
  ["excluded", excluded(c)],
]

const heading = (c: Comparison) => `Compare A: ${c.labels.a} · B: ${c.labels.b}`

/** A compact comparison block for the terminal, without a trailing newline. */
export const formatComparisonText = (c: Comparison): string => {
  const items = comparisonItems(c)
  const width = Math.max(...items.map(([label]) => label.length))
  return [heading(c), ...items.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)].join("\n")
}

const VERDICT_MARKS = { b_better: "✅", b_worse: "❌", no_significant_difference: "➖", too_few_pairs: "⚠️" } as const

/** The comparison as one GitHub markdown document (e.g. a PR comment). */
export const formatComparisonMarkdown = (c: Comparison): string => {
  const lines = [
    `### proctor compare — ${VERDICT_MARKS[c.verdict]} ${comparisonVerdict(c)}`,
    "",
    `A: \`${c.labels.a}\` · B: \`${c.labels.b}\``,
    "",
    "| metric | value |",
    "| --- | --- |",
    ...comparisonItems(c)
      .filter(([label]) => label !== "verdict")
      .map(([label, value]) => markdownRow([label, value])),
  ]
  return `${lines.join("\n")}\n`
}
