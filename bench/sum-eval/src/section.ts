import { fillTemplate, invokedAs, readTemplates } from "@proctor/bench-shared"

/**
 * bench/RESULTS.md's sum-eval section: the prose is bench/sum-eval/templates/*.md, the figures are report.ts's.
 */
const templates = readTemplates(new URL("../templates/", import.meta.url), [
  "section",
  "promptfoo-flag",
  "promptfoo-setup",
  "promptfoo-not-measured",
  "promptfoo-commands",
  "promptfoo-column",
  "promptfoo-limit",
  "promptfoo-limit-not-measured",
  "promptfoo-bound",
  "discarded",
  "disturbed",
])

/** What the section says of promptfoo, when it was measured. */
export interface PromptfooFigures {
  readonly dir: string
  readonly version: string
  readonly node: string
  readonly vsProctor: string
  readonly wallS: string
  readonly verdict: string
  /** When the limit asks for about what the bare loop takes: what it asks for and the bare loop's ratio. */
  readonly bound: { readonly askedS: string; readonly vsBare: string } | null
}

/** The figures of the section, formatted; `sectionText` puts them into bench/sum-eval/templates. */
export interface SumEvalFigures {
  /** The bench's settings the section states. */
  readonly settings: {
    readonly section: string
    readonly prompts: number
    readonly concurrency: number
    readonly modelLatencyMs: number
    readonly rounds: number
    readonly peakRssMethod: string
    readonly quietWaitS: number
    readonly quietCores: number
    readonly retries: number
    readonly bareLoopTarget: number
    readonly promptfooTarget: number
    readonly rssTargetMb: number
  }
  readonly measuredAt: string
  readonly invokedWith: string
  readonly proctor: string
  readonly cli: string
  readonly machine: string
  readonly loadBefore: string
  readonly loadAfter: string
  readonly tableRows: ReadonlyArray<string>
  readonly perRound: string
  readonly proctorVsBare: string
  readonly proctorWallS: string
  readonly bareWallS: string
  readonly bareLoopVerdict: string
  readonly proxiedVsBare: string
  readonly proxiedWallS: string
  readonly proctorVsProxied: string
  readonly proctorRssMb: string
  readonly rssVerdict: string
  readonly promptfoo: PromptfooFigures | null
  readonly discarded: string | null
  readonly disturbed: { readonly count: number; readonly kept: number } | null
}

export const sectionText = (f: SumEvalFigures): string => {
  const promptfoo = f.promptfoo
  const main = fillTemplate(templates.section, {
    section: f.settings.section,
    measured_at: f.measuredAt,
    promptfoo_flag:
      promptfoo === null ? "" : fillTemplate(templates["promptfoo-flag"], { promptfoo_dir: promptfoo.dir }),
    invoked_as: invokedAs("sum-eval", f.invokedWith),
    proctor: f.proctor,
    promptfoo_setup:
      promptfoo === null
        ? templates["promptfoo-not-measured"]
        : fillTemplate(templates["promptfoo-setup"], { version: promptfoo.version, node: promptfoo.node }),
    prompts: f.settings.prompts,
    concurrency: f.settings.concurrency,
    cli: f.cli,
    last_seed: f.settings.prompts - 1,
    promptfoo_commands:
      promptfoo === null ? "" : fillTemplate(templates["promptfoo-commands"], { concurrency: f.settings.concurrency }),
    machine: f.machine,
    load_before: f.loadBefore,
    load_after: f.loadAfter,
    model_latency_ms: f.settings.modelLatencyMs,
    rounds: f.settings.rounds,
    peak_rss_method: f.settings.peakRssMethod,
    quiet_wait_s: f.settings.quietWaitS,
    quiet_cores: f.settings.quietCores,
    retries: f.settings.retries,
    table_rows: f.tableRows.join("\n"),
    promptfoo_column: promptfoo === null ? "" : templates["promptfoo-column"],
    per_round: f.perRound,
    bare_loop_target: f.settings.bareLoopTarget,
    proctor_vs_bare: f.proctorVsBare,
    proctor_wall_s: f.proctorWallS,
    bare_wall_s: f.bareWallS,
    bare_loop_verdict: f.bareLoopVerdict,
    proxied_vs_bare: f.proxiedVsBare,
    proxied_wall_s: f.proxiedWallS,
    proctor_vs_proxied: f.proctorVsProxied,
    promptfoo_limit:
      promptfoo === null
        ? fillTemplate(templates["promptfoo-limit-not-measured"], { promptfoo_target: f.settings.promptfooTarget })
        : fillTemplate(templates["promptfoo-limit"], {
            promptfoo_target: f.settings.promptfooTarget,
            promptfoo_vs_proctor: promptfoo.vsProctor,
            promptfoo_wall_s: promptfoo.wallS,
            promptfoo_verdict: promptfoo.verdict,
            bound:
              promptfoo.bound === null
                ? ""
                : fillTemplate(templates["promptfoo-bound"], {
                    asked_s: promptfoo.bound.askedS,
                    bare_wall_s: f.bareWallS,
                    proxied_wall_s: f.proxiedWallS,
                    promptfoo_vs_bare: promptfoo.bound.vsBare,
                  }),
          }),
    rss_target_mb: f.settings.rssTargetMb,
    proctor_rss_mb: f.proctorRssMb,
    rss_verdict: f.rssVerdict,
  })
  const paragraphs = [
    main,
    ...(f.discarded === null ? [] : [fillTemplate(templates.discarded, { discarded: f.discarded })]),
    ...(f.disturbed === null
      ? []
      : [
          fillTemplate(templates.disturbed, {
            disturbed: f.disturbed.count,
            kept: f.disturbed.kept,
            quiet_cores: f.settings.quietCores,
          }),
        ]),
  ]
  return `${paragraphs.join("\n\n")}\n`
}
