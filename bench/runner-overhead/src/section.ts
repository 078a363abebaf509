import { fillTemplate, invokedAs, readTemplates } from "@proctor/bench-shared"

const templates = readTemplates(new URL("../templates/", import.meta.url), [
  "section",
  "undici-met",
  "undici-not-met",
  "not-reliable",
  "rss-target",
  "discarded",
  "others",
])

/** The figures of the section, formatted; `sectionText` puts them into bench/runner-overhead/templates. */
export interface RunnerOverheadFigures {
  /** The bench's settings the section states. */
  readonly settings: {
    readonly section: string
    readonly rollouts: string
    readonly concurrency: number
    readonly warmup: string
    readonly rounds: number
    readonly quietWaitS: number
    readonly quietCores: number
    readonly retries: number
    readonly peakRssMethod: string
    readonly throughputTarget: number
    readonly wholeProcessTarget: number
    readonly rssTargetMb: number
  }
  readonly measuredAt: string
  readonly invokedWith: string
  readonly proctor: string
  readonly machine: string
  readonly loadBefore: string
  readonly loadAfter: string
  readonly roundRows: ReadonlyArray<string>
  readonly inRunVsUndici: string
  readonly inRunVsNode: string
  readonly wholeVsUndici: string
  readonly wholeVsNode: string
  readonly inRunVsUndiciByRound: string
  readonly inRunVsNodeByRound: string
  readonly undiciCpuUs: string
  readonly nodeCpuUs: string
  readonly nodeProcessCpuUs: string
  readonly proctorCpuUs: string
  readonly rssRows: ReadonlyArray<string>
  readonly throughputVerdict: string
  readonly undiciMet: boolean
  /** Kept throughput measurements that other processes disturbed, of all kept; null when none was. */
  readonly disturbed: { readonly count: number; readonly kept: number } | null
  readonly pairs: number
  readonly pairRatios: string
  readonly wholeVsBare: string
  readonly wholeProcessVerdict: string
  readonly rssTargets: ReadonlyArray<{ readonly seeds: string; readonly peakRssMb: string; readonly verdict: string }>
  readonly discarded: { readonly count: number; readonly list: string } | null
  /** The most cores other processes used, when above 0.1. */
  readonly maxOthers: string | null
}

/** bench/RESULTS.md's runner-overhead section: the prose is bench/runner-overhead/templates/*.md. */
export const sectionText = (f: RunnerOverheadFigures): string => {
  const main = fillTemplate(templates.section, {
    section: f.settings.section,
    measured_at: f.measuredAt,
    invoked_as: invokedAs("runner-overhead", f.invokedWith),
    proctor: f.proctor,
    machine: f.machine,
    load_before: f.loadBefore,
    load_after: f.loadAfter,
    rollouts: f.settings.rollouts,
    concurrency: f.settings.concurrency,
    warmup: f.settings.warmup,
    rounds: f.settings.rounds,
    quiet_wait_s: f.settings.quietWaitS,
    quiet_cores: f.settings.quietCores,
    retries: f.settings.retries,
    round_rows: f.roundRows.join("\n"),
    in_run_vs_undici: f.inRunVsUndici,
    in_run_vs_node: f.inRunVsNode,
    whole_vs_undici: f.wholeVsUndici,
    whole_vs_node: f.wholeVsNode,
    in_run_vs_undici_by_round: f.inRunVsUndiciByRound,
    in_run_vs_node_by_round: f.inRunVsNodeByRound,
    undici_cpu_us: f.undiciCpuUs,
    node_cpu_us: f.nodeCpuUs,
    node_process_cpu_us: f.nodeProcessCpuUs,
    proctor_cpu_us: f.proctorCpuUs,
    peak_rss_method: f.settings.peakRssMethod,
    rss_rows: f.rssRows.join("\n"),
    throughput_target: f.settings.throughputTarget,
    throughput_verdict: f.throughputVerdict,
    undici_verdict: f.undiciMet ? templates["undici-met"] : templates["undici-not-met"],
    not_reliable:
      f.disturbed === null
        ? ""
        : fillTemplate(templates["not-reliable"], {
            disturbed: f.disturbed.count,
            kept: f.disturbed.kept,
            quiet_cores: f.settings.quietCores,
          }),
    whole_process_target: f.settings.wholeProcessTarget,
    pairs: f.pairs,
    pair_ratios: f.pairRatios,
    whole_vs_bare: f.wholeVsBare,
    whole_process_verdict: f.wholeProcessVerdict,
    rss_targets: f.rssTargets
      .map((target) =>
        fillTemplate(templates["rss-target"], {
          rss_target_mb: f.settings.rssTargetMb,
          seeds: target.seeds,
          peak_rss_mb: target.peakRssMb,
          verdict: target.verdict,
        }),
      )
      .join("\n"),
  })
  const paragraphs = [
    main,
    ...(f.discarded === null
      ? []
      : [fillTemplate(templates.discarded, { count: f.discarded.count, discarded: f.discarded.list })]),
    ...(f.maxOthers === null ? [] : [fillTemplate(templates.others, { max_others: f.maxOthers })]),
  ]
  return `${paragraphs.join("\n\n")}\n`
}
