import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { formatMeanInterval } from "@proctor/report"

/** The part of `--output-json`'s `summary` (core's RunSummary) the recap shows. */
export interface SummaryView {
  readonly completed: number
  readonly planned: number
  readonly ok: number
  readonly errored: number
  readonly missing: number
  readonly is_valid: boolean
  readonly invalid_reasons: ReadonlyArray<string>
  readonly metrics: {
    readonly count: number
    readonly mean_score: number | null
    readonly ci95: readonly [number, number] | null
    /** Absent in summaries written before proctor said which interval it gave: those are Student's t. */
    readonly interval?: "student_t" | "wilson"
  }
  readonly errors_by_kind: Readonly<Record<string, number>>
  readonly duration_s: number
  readonly tokens?: { readonly total: number | null }
  readonly cost_usd?: { readonly total: number | null }
}

export interface EvalOutcome {
  readonly app: string
  readonly runDir: string
  /** A task-app eval (its app must run again to resume), or an agent eval on the example tasks. */
  readonly kind: "task-app" | "agents"
  /** It calls the model (the builtin agent, every task-app eval): resuming needs the model again. */
  readonly usesModel: boolean
  readonly wallSeconds: number
  /** Why the eval counts as failed to run; undefined when it ran. */
  readonly failure: string | undefined
  readonly interrupted: boolean
  readonly summary: SummaryView | undefined
}

/** Reads the summary the CLI wrote with `--output-json`; undefined when it wrote none (or not whole). */
export const readSummary = (outputJson: string): SummaryView | undefined => {
  try {
    const document = JSON.parse(readFileSync(outputJson, "utf8")) as { summary?: SummaryView }
    return document.summary
  } catch {
    return undefined
  }
}

/** Four significant decimals with trailing zeros trimmed, as the CLI's table prints floats. */
const num = (n: number): string => String(Number(n.toFixed(4)))

const seconds = (s: number): string =>
  s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`

const scoreText = (summary: SummaryView): string => {
  const { mean_score, ci95, count, interval = "student_t" } = summary.metrics
  if (mean_score === null) return "no score"
  if (ci95 === null) return `${num(mean_score)} (n=${count})`
  // To the precision the interval supports, as proctor's own summary prints it.
  const estimate = formatMeanInterval(mean_score, ci95, interval)
  return `${estimate.mean} (95% CI ${estimate.low}–${estimate.high}, n=${count})`
}

const errorsText = (summary: SummaryView): string => {
  const kinds = Object.entries(summary.errors_by_kind)
  const detail = kinds.length === 0 ? "" : ` (${kinds.map(([kind, n]) => `${kind} ${n}`).join(", ")})`
  const missing = summary.missing === 0 ? "" : `, ${summary.missing} not run`
  return `${summary.errored} errors${detail}${missing}`
}

/** Tokens and cost as the interceptor measured them; "unpriced" rather than $0 when no price is known. */
const usageText = (summary: SummaryView): string => {
  const tokens = summary.tokens?.total
  if (tokens === null || tokens === undefined) return ""
  const cost = summary.cost_usd?.total
  return ` · ${tokens.toLocaleString("en-US")} tokens · ${cost === null || cost === undefined ? "unpriced" : `$${Number(cost.toPrecision(3))}`}`
}

/** The ports of `pnpm example:math` and `pnpm example:model`, which the README uses too. */
const HINT_APP_PORT = 8000
const HINT_MODEL_PORT = 8001

export interface RecapInput {
  readonly model: string
  readonly outcomes: ReadonlyArray<EvalOutcome>
  readonly totalSeconds: number
  /** The model key travelled in policy_config, which run directories leave out (a resume needs it again). */
  readonly keyInPolicyConfig: boolean
}

export const formatRecap = ({ model, outcomes, totalSeconds, keyInPolicyConfig }: RecapInput): string => {
  const width = Math.max(...outcomes.map((o) => o.app.length), "model".length) + 2
  const pad = (label: string) => label.padEnd(width)
  const out = ["", "━━ proctor demo: recap ━━", `${pad("model")}${model}`]
  for (const o of outcomes) {
    const status = o.failure !== undefined ? `FAILED: ${o.failure}` : o.interrupted ? "interrupted" : ""
    const body =
      o.summary === undefined
        ? status
        : `${scoreText(o.summary)} · ${errorsText(o.summary)}${usageText(o.summary)} · ${seconds(o.wallSeconds)}${
            status === "" ? "" : ` · ${status}`
          }`
    out.push(`${pad(o.app)}${body}`, `${pad("")}${o.runDir}${existsSync(o.runDir) ? "" : " (not created)"}`)
  }
  out.push(`${pad("total")}${seconds(totalSeconds)}`, "")
  const resumable = outcomes.filter((o) => existsSync(join(o.runDir, "config.json")))
  if (resumable.length > 0) {
    // The demo's servers listened on ports of their own, gone with them: the hint starts servers on fixed
    // ones and points the resume at them (a resume takes new URLs, see ResumeSettings.ts).
    const withModel = !keyInPolicyConfig && resumable.some((o) => o.usesModel)
    const withApp = resumable.some((o) => o.kind === "task-app")
    const servers = [withApp ? "the task app" : "", withModel ? "the model" : ""].filter(Boolean).join(" and ")
    const modelFlag = (o: EvalOutcome) =>
      withModel && o.usesModel ? ` --inference-url http://127.0.0.1:${HINT_MODEL_PORT}/v1` : ""
    out.push(
      "Inspect: each run directory holds config.json, results.jsonl (one line per rollout, written as it",
      "finished), model_calls.jsonl (every model call: tokens, cost, latency), summary.json, and results.json.",
      "Resume: a run that stopped early, or had errors, continues where it left off.",
      ...(servers === ""
        ? []
        : [
            `The demo's servers are gone: start ${servers} again, then point the runs at ${servers.includes(" and ") ? "them" : "it"}:`,
          ]),
      ...(withModel ? [`  PORT=${HINT_MODEL_PORT} node examples/baseline-model/dist/main.js &`] : []),
      ...resumable.flatMap((o) =>
        o.kind === "task-app"
          ? [
              `  ENVIRONMENT_API_KEY=<the task app's key> PORT=${HINT_APP_PORT} node examples/${o.app}/dist/main.js &`,
              `  ENVIRONMENT_API_KEY=<the task app's key> pnpm proctor eval --resume ${o.runDir} --url http://127.0.0.1:${HINT_APP_PORT}${modelFlag(o)} --retry-errors`,
            ]
          : // Agent runs have no task app: the tasks are files, the sandbox is made afresh.
            [`  pnpm proctor eval --resume ${o.runDir}${modelFlag(o)} --retry-errors`],
      ),
    )
    if (keyInPolicyConfig) {
      out.push(
        "Run directories keep no model key: give it back when resuming, in a private TOML holding",
        '  [eval.policy_config] api_key = "…", with --config FILE next to --resume.',
      )
    }
  }
  return `${out.join("\n")}\n`
}
