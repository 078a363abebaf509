import { Effect, Random, Schema } from "effect"
import {
  askSamples,
  columnText,
  type JudgeGrader,
  judgeGraderFields,
  judgeGraderName,
  taskText,
} from "./JudgeGrader.js"
import { judgeJson, reasoningOf } from "./judgeAnswer.js"
import { judgeMessages, WINNER_FORMAT } from "./judgePrompt.js"

/**
 * Pairwise: the judge compares the rollout's answer with another answer to the same task (a dataset column: a
 * reference model's answer, an earlier run's) and names the better one, A or B, or a tie. Which answer is shown
 * first is drawn at random (Effect's `Random`: seed it to replay) and recorded; with `both_orders` the judge is
 * asked in both orders, which measures its position bias. Score: 1 when the rollout's answer wins, ½ for a tie, 0
 * when it loses, averaged over orders and samples; it passes above ½.
 */
export const PairwiseGraderSpec = Schema.Struct({
  type: Schema.Literal("pairwise"),
  ...judgeGraderFields,
  criteria: Schema.NonEmptyTrimmedString.annotations({ description: "What makes one answer better, for the judge." }),
  other: Schema.NonEmptyTrimmedString.annotations({
    description: "The dataset column with the answer to compare against (a reference model's, an earlier run's).",
  }),
  reference: Schema.optionalWith(Schema.NonEmptyTrimmedString, { exact: true }).annotations({
    description: "A dataset column with a reference answer, shown to the judge.",
  }),
  both_orders: Schema.optionalWith(Schema.Boolean, { exact: true, default: () => false }).annotations({
    description:
      "Ask in both orders, which measures the judge's position bias (default false: one order, drawn at random and recorded).",
  }),
}).annotations({
  identifier: "pairwise",
  description:
    "A judge model compares the answer with another answer to the same task and names the better one or a tie (win 1, tie ½, loss 0; passes above ½).",
})
export type PairwiseGraderSpec = typeof PairwiseGraderSpec.Type

/** Which answer the judge saw as A. */
export type PairOrder = "answer_first" | "other_first"
type Winner = "A" | "B" | "tie"

const INSTRUCTIONS = "Compare the two answers to the task by the criteria and say which is better, or that they tie."
const WINNERS: ReadonlyArray<string> = ["A", "B", "tie"]

/** The rollout's answer's share of one verdict: 1 when it won, ½ for a tie. */
const answerShare = (winner: Winner, order: PairOrder): number =>
  winner === "tie" ? 0.5 : (winner === "A") === (order === "answer_first") ? 1 : 0

export const pairwiseGrader: JudgeGrader<PairwiseGraderSpec> = (spec, input) =>
  Effect.gen(function* () {
    const other = columnText(input.item, spec.other)
    const first: PairOrder = (yield* Random.nextBoolean) ? "answer_first" : "other_first"
    const orders: ReadonlyArray<PairOrder> = spec.both_orders
      ? [first, first === "answer_first" ? "other_first" : "answer_first"]
      : [first]
    const verdicts = yield* Effect.forEach(orders, (order) =>
      Effect.gen(function* () {
        const [a, b] = order === "answer_first" ? [input.answer, other] : [other, input.answer]
        const { answers, record } = yield* askSamples({
          grader: judgeGraderName(spec),
          messages: judgeMessages(INSTRUCTIONS, WINNER_FORMAT, [
            { title: "Task", text: taskText(spec, input) },
            {
              title: "Reference answer",
              text: spec.reference === undefined ? "" : columnText(input.item, spec.reference),
            },
            { title: "Answer A", text: a },
            { title: "Answer B", text: b },
            { title: "Criteria", text: spec.criteria },
          ]),
          read: (text) => {
            const json = judgeJson(text)
            if (json === null) {
              return { ok: false, reason: "unparseable", message: "the judge's answer holds no JSON object" }
            }
            const winner = typeof json.winner === "string" ? json.winner.trim() : null
            if (winner === null)
              return { ok: false, reason: "unparseable", message: 'the judge\'s answer has no "winner"' }
            if (!WINNERS.includes(winner)) {
              return {
                ok: false,
                reason: "out_of_range",
                message: `the judge's winner ${JSON.stringify(winner)} is none of A, B, tie`,
              }
            }
            return { ok: true, value: { winner: winner as Winner, reasoning: reasoningOf(json) } }
          },
        })
        const shares = answers.map((answer) => answerShare(answer.value.winner, order))
        const reasoning = answers[0]?.value.reasoning ?? null
        return {
          order,
          winners: answers.map((answer) => answer.value.winner),
          outcomes: shares.map((share) => (share === 1 ? "won" : share === 0 ? "lost" : "tie")),
          share: shares.reduce((a, b) => a + b, 0) / shares.length,
          judge: record(reasoning),
        }
      }),
    )
    const score = verdicts.reduce((total, verdict) => total + verdict.share, 0) / verdicts.length
    const reasoning = verdicts[0]?.judge.reasoning ?? null
    return {
      score,
      passed: score > 0.5,
      ...(reasoning === null ? {} : { reason: reasoning }),
      details: { kind: "pairwise", order: first, verdicts },
    }
  })
