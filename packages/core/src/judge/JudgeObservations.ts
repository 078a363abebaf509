import type { GraderSpec } from "../grader/GraderSpec.js"
import type { EvalResult } from "../result/EvalResult.js"
import { type JudgeObservation, type JudgeTrust, judgeTrust } from "../summary/JudgeTrust.js"
import { judgeGraderName } from "./JudgeGrader.js"
import type { JudgeSettings } from "./JudgeSettings.js"
import { judgeObservation } from "./judgeObservation.js"
import { isModelGraderSpec, type ModelGraderSpec } from "./ModelGraderSpec.js"

export interface JudgeObservationsOptions {
  readonly specs: ReadonlyArray<GraderSpec>
  readonly evalJudge: JudgeSettings | undefined
  /** The result's task row (a dataset's, else what its task said of it), where human labels are read. */
  readonly rowOf: (result: EvalResult) => Readonly<Record<string, unknown>> | undefined
  /** Prefixed to each grader's name (a grader set's, beside the run's own judges). */
  readonly prefix?: string | undefined
}

const humanValue = (value: unknown): string | number | null =>
  typeof value === "number" && Number.isFinite(value)
    ? value
    : typeof value === "string" && value.trim() !== ""
      ? value.trim()
      : null

/** The column a model grader's human labels are read from: its own judge's `human_labels`, else the eval judge's. */
const humanLabelsOf = (spec: ModelGraderSpec, evalJudge: JudgeSettings | undefined): string | undefined =>
  (spec.judge ?? evalJudge)?.human_labels

/**
 * The first `human_labels` column a dataset lacks (`hasColumn` false), as the key naming it and the column; null when
 * it has them all. No row having the column is a typo, which would otherwise leave the run without human agreement
 * and say nothing; a row without it is an item nobody labelled, so only the column's absence from every row is asked.
 */
export const missingHumanLabels = (
  specs: ReadonlyArray<GraderSpec>,
  evalJudge: JudgeSettings | undefined,
  hasColumn: (column: string) => boolean,
): { readonly key: string; readonly column: string } | null => {
  for (const [index, spec] of specs.entries()) {
    if (!isModelGraderSpec(spec)) continue
    const column = humanLabelsOf(spec, evalJudge)
    if (column === undefined || hasColumn(column)) continue
    return { key: spec.judge === undefined ? "judge.human_labels" : `graders[${index}].judge.human_labels`, column }
  }
  return null
}

/**
 * Collects the model graders' verdicts of a run's results, as the judge trust statistics read them, with each item's
 * human label (the judge's `human_labels` column), and turns them into the run's `judge_trust`.
 */
export class JudgeObservations {
  private readonly observations: Array<JudgeObservation> = []
  private readonly judged: ReadonlyArray<{ readonly name: string; readonly human: string | undefined }>

  constructor(private readonly options: JudgeObservationsOptions) {
    this.judged = options.specs.filter(isModelGraderSpec).map((spec) => ({
      name: judgeGraderName(spec),
      human: humanLabelsOf(spec, options.evalJudge),
    }))
  }

  /** True when the specs hold a model grader: only then is there anything to collect. */
  get active(): boolean {
    return this.judged.length > 0
  }

  add(result: EvalResult): void {
    if (result.grades === undefined) return
    const row = this.options.rowOf(result)
    // The task is the unit the trust statistics resample: its id, else its seed.
    const item = String(result.task_id ?? result.seed)
    for (const { name, human } of this.judged) {
      const verdict = result.grades[name]
      if (verdict === undefined) continue
      const label = human === undefined || row === undefined ? undefined : humanValue(row[human])
      const observed = judgeObservation(`${this.options.prefix ?? ""}${name}`, verdict, item, label)
      if (observed !== null) this.observations.push(observed)
    }
  }

  trust(): JudgeTrust | null {
    return judgeTrust(this.observations)
  }

  /** The trust statistics over several collections at once: every two judges' agreement among them shows. */
  static trustOf(...collections: ReadonlyArray<JudgeObservations>): JudgeTrust | null {
    return judgeTrust(collections.flatMap((collection) => collection.observations))
  }
}
