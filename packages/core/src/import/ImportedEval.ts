import type { Effect } from "effect"
import type { GraderError, GraderVerdict } from "../grader/Grader.js"
import type { GridVariantSpec } from "../grid/GridVariants.js"
import type { JudgeClient } from "../judge/JudgeClient.js"
import type { JudgeError } from "../judge/JudgeError.js"
import type { ModelGraderSpec } from "../judge/ModelGraderSpec.js"

/**
 * One check of an imported test (a promptfoo assertion, an OpenAI testing criterion), bound to its row: the
 * answer in, a verdict out. Each runs one of proctor's graders and applies the source's own rule on top
 * (a `not-` prefix, a threshold). A rule answers at once; a check that runs a program (a Python grader) answers an
 * effect; a model-graded one is one of proctor's model graders, asking the run's judge about the answer to its row's
 * prompt, with `item` as the row its grader reads (a reference, say).
 */
export type ImportedCheck = {
  /** The verdict's name in the rollout's grades (unique within its row). */
  readonly name: string
  readonly weight: number
} & ImportedCheckKind

/** How an imported check reaches its verdict. */
export type ImportedCheckKind =
  | { readonly rule: (answer: string) => GraderVerdict }
  | { readonly run: (answer: string, prompt: string) => Effect.Effect<GraderVerdict, GraderError> }
  | {
      readonly model: ModelGraderSpec
      readonly item: Readonly<Record<string, unknown>>
      /** The key path of what it was read from, for the line saying it needs a judge. */
      readonly path: string
    }
  /**
   * A model grader of the source's own prompt (OpenAI's `score_model`, `label_model`): the run's judge, with the
   * criterion's model and settings, asked its messages about the answer (`grade`, on that judge's client).
   */
  | {
      readonly judged: {
        readonly model: string
        readonly temperature?: number
        readonly max_tokens?: number
        readonly grade: (answer: string, grader: string) => Effect.Effect<GraderVerdict, JudgeError, JudgeClient>
      }
      readonly path: string
    }
  /** A set of checks scored together as one (promptfoo's `assert-set`). */
  | { readonly set: ReadonlyArray<ImportedCheck>; readonly aggregate: ImportedAggregate }

/** How a row's verdicts make its own: promptfoo's weighted mean and all-must-pass, or another source's rule. */
export type ImportedAggregate = (
  verdicts: ReadonlyArray<{ readonly check: ImportedCheck; readonly verdict: GraderVerdict }>,
) => GraderVerdict

/** One task of an imported eval: the messages the model is asked, its checks, and the row they came from. */
export interface ImportedRow {
  readonly id: string | number
  /** The row as results and the viewer show it (the test's vars, an OpenAI item). */
  readonly item: Readonly<Record<string, unknown>>
  readonly system: string
  readonly user: string
  readonly checks: ReadonlyArray<ImportedCheck>
  readonly aggregate: ImportedAggregate
}

/** The model settings an imported file names; flags and the eval TOML override them. */
export interface ImportedModel {
  readonly model?: string
  readonly inference_url?: string
  readonly provider?: string
  readonly sampling: Readonly<Record<string, unknown>>
  /** Several models (promptfoo's providers): a grid run, a variant each. */
  readonly variants?: readonly [GridVariantSpec, ...ReadonlyArray<GridVariantSpec>]
}

/** An eval read from another tool's files, ready to run as a proctor dataset run. */
export interface ImportedEval {
  /** What it was read from (`promptfoo promptfooconfig.yaml`), for messages. */
  readonly source: string
  /** Its name (the run's `app_id` unless one is given). */
  readonly name: string
  readonly rows: ReadonlyArray<ImportedRow>
  readonly model: ImportedModel
}
