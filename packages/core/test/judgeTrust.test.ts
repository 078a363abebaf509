import { describe, expect, it } from "@effect/vitest"
import { Effect, Random, Redacted } from "effect"
import { createBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { Interceptor } from "../src/interceptor/Interceptor.js"
import { serveInterceptor } from "../src/interceptor/serveInterceptor.js"
import { JudgeClient } from "../src/judge/JudgeClient.js"
import { judgeObservation } from "../src/judge/judgeObservation.js"
import { labelGrader } from "../src/judge/labelGrader.js"
import { pairwiseGrader } from "../src/judge/pairwiseGrader.js"
import { rubricGrader } from "../src/judge/rubricGrader.js"
import { cohenKappa, confusionMatrix } from "../src/summary/CohenKappa.js"
import { type JudgeObservation, judgeTrust } from "../src/summary/JudgeTrust.js"
import { krippendorffAlpha } from "../src/summary/KrippendorffAlpha.js"
import { tCritical95 } from "../src/summary/StudentT.js"

const label = (item: string, value: string, human: string, grader = "j"): JudgeObservation => ({
  grader,
  item,
  kind: "label",
  value,
  score: value === "pass" ? 1 : 0,
  human,
})

describe("judge trust statistics on fixed data", () => {
  const judged = [
    ...Array.from({ length: 20 }, (_, i) => label(`a${i}`, "pass", "pass")),
    ...Array.from({ length: 5 }, (_, i) => label(`b${i}`, "pass", "fail")),
    ...Array.from({ length: 10 }, (_, i) => label(`c${i}`, "fail", "pass")),
    ...Array.from({ length: 15 }, (_, i) => label(`d${i}`, "fail", "fail")),
  ]

  it("agreement with human labels: the textbook kappa, nominal alpha and the confusion matrix, with CIs", () => {
    const human = judgeTrust(judged)!.graders[0]!.human!
    expect(human.kappa!.value).toBeCloseTo(0.4, 12)
    const pairs = judged.map((o) => [String(o.human), String(o.value)] as const)
    expect(human.alpha.value).toBeCloseTo(krippendorffAlpha(pairs, "nominal")!, 12)
    expect(human.confusion).toEqual(confusionMatrix(pairs))
    // Rows are the human's labels (fail, pass), columns the judge's.
    expect(human.confusion!.counts).toEqual([
      [15, 5],
      [10, 20],
    ])
    const [lo, hi] = human.kappa!.ci95!
    expect(lo).toBeLessThan(0.4)
    expect(hi).toBeGreaterThan(0.4)
    // The bootstrap is seeded: the same verdicts give the same interval.
    expect(judgeTrust(judged)!.graders[0]!.human!.kappa!.ci95).toEqual([lo, hi])
  })

  it("scores against human scores use ordinal alpha, as Krippendorff's example computes it", () => {
    const judge = [1, 2, 3, 3, 2, 1, 4, 1, 2]
    const people = [1, 2, 3, 3, 2, 2, 4, 1, 2]
    const observations = judge.map(
      (value, i): JudgeObservation => ({
        grader: "r",
        item: String(i),
        kind: "score",
        value,
        score: 0,
        human: people[i]!,
      }),
    )
    const human = judgeTrust(observations)!.graders[0]!.human!
    expect(human.alpha_level).toBe("ordinal")
    expect(human.kappa).toBe(null)
    expect(human.alpha.value).toBeCloseTo(
      krippendorffAlpha(
        people.map((p, i) => [p, judge[i]!]),
        "ordinal",
      )!,
      12,
    )
  })

  it("two judges' agreement on the items both graded", () => {
    const second = judged.map((o, i) => ({ ...o, grader: "k", value: i % 7 === 0 ? "fail" : o.value }))
    const [agreement] = judgeTrust([...judged, ...second])!.agreement
    expect(agreement!.graders).toEqual(["j", "k"])
    expect(agreement!.kappa!.value).toBeCloseTo(
      cohenKappa(judged.map((o, i) => [String(o.value), String(second[i]!.value)] as const))!,
      12,
    )
  })

  it("self-consistency: within-item variance and its share of the squared standard error", () => {
    const samples = [
      [1, 1, 0],
      [0, 0, 0],
      [1, 1, 1],
      [0.5, 1, 1],
    ]
    const observations = samples.map(
      (each, i): JudgeObservation => ({
        grader: "s",
        item: String(i),
        kind: "score",
        value: 0,
        score: 0,
        samples: each,
      }),
    )
    const self = judgeTrust(observations)!.graders[0]!.self_consistency!
    // By hand: sample variances 1/3, 0, 0, 1/12 → mean 5/48; item means 2/3, 0, 1, 5/6 → variance 0.19290…
    const means = [2 / 3, 0, 1, 5 / 6]
    const m = means.reduce((a, b) => a + b) / 4
    const between = means.reduce((a, b) => a + (b - m) ** 2, 0) / 3
    expect(self.within_item_variance).toBeCloseTo(5 / 48, 12)
    expect(self.share_of_stderr2).toBeCloseTo(5 / 48 / 3 / between, 12)
    expect(self.samples).toBe(3)
  })

  it("pairwise: position bias as the share of flips on swap, and a win rate paired by task", () => {
    const pair = (item: string, first: "won" | "lost" | "tie", second: "won" | "lost" | "tie"): JudgeObservation => ({
      grader: "p",
      item,
      kind: "pairwise",
      value: 0,
      score:
        ((first === "won" ? 1 : first === "tie" ? 0.5 : 0) + (second === "won" ? 1 : second === "tie" ? 0.5 : 0)) / 2,
      orders: [
        { order: "answer_first", outcome: first },
        { order: "other_first", outcome: second },
      ],
    })
    const observations = [
      pair("t1", "won", "won"),
      pair("t2", "won", "lost"), // flips: the first-shown answer won both times
      pair("t3", "lost", "lost"),
      pair("t4", "won", "tie"),
      pair("t1", "won", "won"), // a second attempt at t1: averaged into its task first
    ]
    const trust = judgeTrust(observations)!.graders[0]!
    expect(trust.position_bias!.items).toBe(5)
    expect(trust.position_bias!.flip_rate.value).toBeCloseTo(2 / 5, 12)
    // Decided verdicts: 9 (one tie); the first-shown answer won in t1 once, t2 twice, t3, t4 and t1's second attempt once each.
    expect(trust.position_bias!.first_shown_wins).toBeCloseTo(6 / 9, 12)
    const perTask = [1, 0.5, 0, 0.75]
    const mean = perTask.reduce((a, b) => a + b) / 4
    const sd = Math.sqrt(perTask.reduce((a, b) => a + (b - mean) ** 2, 0) / 3)
    const half = (tCritical95(3) * sd) / 2
    expect(trust.win_rate!.value).toBeCloseTo(mean, 12)
    expect(trust.win_rate!.ci95![0]).toBeCloseTo(mean - half, 12)
    expect(trust.win_rate!.ci95![1]).toBeCloseTo(mean + half, 12)
    expect(trust.win_rate!.tasks).toBe(4)
  })
})

describe("trusting the baseline judge, end to end", () => {
  it.scoped("200 questions judged by a rubric, a label judge sampled 3 times and a pairwise judge", () =>
    Effect.gen(function* () {
      const model = yield* Effect.acquireRelease(
        Effect.promise(() => createBaselineModel().listen()),
        (m) => Effect.promise(m.close),
      )
      const interceptor = yield* Interceptor.make()
      yield* serveInterceptor(interceptor)
      const judge = (samples: number) =>
        JudgeClient.make({
          interception: interceptor,
          runId: "run-trust",
          recordCalls: () => Effect.void,
          settings: { model: "baseline-judge", samples, temperature: samples > 1 ? 0.7 : 0 },
          upstream: { baseUrl: model.url, apiKey: Redacted.make("k") },
        })
      // A dataset whose answers are right on even rows, off by one on odd rows; the human label says which.
      const rows = Array.from({ length: 200 }, (_, i) => {
        const [a, b] = [i * 3 + 1, i * 5 + 2]
        const right = i % 2 === 0
        return {
          id: `q${i}`,
          question: `What is ${a} + ${b}?`,
          answer: String(right ? a + b : a + b + 1),
          other: String(right ? a + b + 1 : a + b),
          human_label: right ? "correct" : "incorrect",
          human_score: right ? 5 : 1,
        }
      })
      const observations = yield* Effect.forEach(
        rows,
        (row) =>
          Effect.gen(function* () {
            const input = { answer: row.answer, item: row }
            const rubric = yield* rubricGrader(
              { type: "rubric", name: "rubric", question: "question", rubric: "The right sum.", range: [1, 5] },
              input,
            ).pipe(Effect.provideService(JudgeClient, judge(1)))
            const labelled = yield* labelGrader(
              {
                type: "label",
                name: "label",
                question: "question",
                instructions: "Is the sum right?",
                labels: ["correct", "incorrect"],
                passing: ["correct"],
              },
              input,
            ).pipe(Effect.provideService(JudgeClient, judge(3)))
            const pairwise = yield* pairwiseGrader(
              {
                type: "pairwise",
                name: "pairwise",
                question: "question",
                criteria: "The right sum wins.",
                other: "other",
                both_orders: true,
              },
              input,
            ).pipe(Effect.provideService(JudgeClient, judge(1)))
            return [
              judgeObservation("rubric", rubric, row.id, row.human_score),
              judgeObservation("label", labelled, row.id, row.human_label),
              judgeObservation("pairwise", pairwise, row.id),
            ]
          }),
        { concurrency: 8 },
      ).pipe(Effect.withRandom(Random.make("trust")))
      const trust = judgeTrust(observations.flat().filter((o) => o !== null))!
      const [rubric, labelled, pairwise] = trust.graders
      // The baseline judge is wrong on one item in five: agreement with the humans well above chance, well below 1.
      for (const alpha of [rubric!.human!.alpha, labelled!.human!.alpha]) {
        expect(alpha.value!).toBeGreaterThan(0.4)
        expect(alpha.value!).toBeLessThan(0.85)
        expect(alpha.ci95![0]).toBeLessThan(alpha.value!)
        expect(alpha.ci95![1]).toBeGreaterThan(alpha.value!)
      }
      expect(labelled!.human!.kappa!.value!).toBeGreaterThan(0.4)
      // Sampled at temperature 0.7, the label judge varies within items; the single-sample rubric judge does not.
      expect(labelled!.self_consistency!.within_item_variance).toBeGreaterThan(0)
      expect(labelled!.self_consistency!.share_of_stderr2!).toBeLessThan(0.5)
      expect(rubric!.self_consistency).toBe(null)
      // Its wrong pairwise verdicts always name A: a position bias the swap exposes.
      expect(pairwise!.position_bias!.flip_rate.value!).toBeGreaterThan(0.1)
      expect(pairwise!.position_bias!.first_shown_wins!).toBeGreaterThan(0.5)
      expect(pairwise!.win_rate!.tasks).toBe(200)
      // Rubric (score) and label judges are of different kinds: no agreement between them is claimed.
      expect(trust.agreement).toEqual([])
    }),
  )
})
