import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { jsonLinesOf, resultsIn } from "@proctor/test-kit"
import { Either } from "effect"
import { createBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { evaluate } from "../src/eval/Evaluate.js"
import type { RunEvent } from "../src/events/RunEvents.js"
import { RetryableError } from "../src/solver/RetryableError.js"
import { decodeModelCalls } from "../src/store/ModelCallCodec.js"

const freshRunDir = () => join(mkdtempSync(join(tmpdir(), "proctor-evaluate-")), "run")

const callsIn = (runDir: string) => Either.getOrThrow(decodeModelCalls(jsonLinesOf(join(runDir, "model_calls.jsonl"))))

const questions = [
  { id: "two", question: "1+1", expected: "2" },
  { id: "four", question: "2+2", expected: "4" },
  { id: 7, question: "3+4", expected: "7" },
]

describe("evaluate (in-process evals)", () => {
  it("scores every task × attempt, keeps the task id, answer and details, and gives pass@k", async () => {
    const runDir = freshRunDir()
    const events: Array<RunEvent["_tag"]> = []
    const outcome = await evaluate({
      name: "arith",
      tasks: questions,
      attempts: 3,
      runDir,
      onEvent: (event) => events.push(event._tag),
      // Task "two" is always right, "four" right on attempt 0 only, 7 never.
      solve: (task, ctx) => {
        const answer = task.id === "two" || (task.id === "four" && ctx.attempt === 0) ? task.expected : "?"
        return { score: answer === task.expected ? 1 : 0, answer, details: { attempt: ctx.attempt } }
      },
    })
    expect(outcome.summary.completed).toBe(9)
    expect(outcome.summary.metrics.mean_score).toBeCloseTo(4 / 9, 10)
    // pass@1 = mean over tasks of c/n = (1 + 1/3 + 0) / 3; pass@3 = 2/3.
    expect(outcome.summary.pass_at_k?.["1"]).toBeCloseTo(4 / 9, 10)
    expect(outcome.summary.pass_at_k?.["3"]).toBeCloseTo(2 / 3, 10)
    expect(outcome.location).toBe(runDir)
    const results = resultsIn(runDir)
    expect(results.map((r) => `${r.task_id}/${r.attempt}`).sort()).toEqual(
      ["7/0", "7/1", "7/2", "four/0", "four/1", "four/2", "two/0", "two/1", "two/2"].sort(),
    )
    const fourFirst = results.find((r) => r.task_id === "four" && r.attempt === 0)
    expect(fourFirst).toMatchObject({ status: "ok", score: 1, details: { answer: "4", attempt: 0 } })
    expect(typeof results.find((r) => r.task_id === 7)?.task_id).toBe("number")
    const summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8"))
    expect(summary.completed).toBe(9)
    expect(events[0]).toBe("RunStarted")
    expect(events.at(-1)).toBe("RunFinished")
  })

  it("clusters the error bar by a task field (clusterBy): tasks of one topic are one cluster", async () => {
    const runDir = freshRunDir()
    const tasks = [
      { id: 1, topic: "a", right: true },
      { id: 2, topic: "a", right: true },
      { id: 3, topic: "b", right: false },
      { id: 4, topic: "b", right: false },
    ]
    const outcome = await evaluate({
      name: "topics",
      tasks,
      runDir,
      clusterBy: "topic",
      solve: (task) => ({ score: task.right ? 1 : 0 }),
    })
    // Mean 0.5; cluster totals of residuals g_a = +1, g_b = −1; SE = √(C/(C−1) · Σg²) / N = √(2 · 2) / 4 = 0.5.
    expect(outcome.summary.metrics).toMatchObject({ estimator: "clustered_by:topic", n_clusters: 2, df: 1 })
    expect(outcome.summary.metrics.stderr).toBeCloseTo(0.5, 12)
    expect(
      resultsIn(runDir)
        .map((r) => r.cluster)
        .sort(),
    ).toEqual(["a", "a", "b", "b"])
  })

  it("retries a RetryableError with the runner's backoff, then records the success", async () => {
    const runDir = freshRunDir()
    let calls = 0
    const retried: Array<RunEvent> = []
    const outcome = await evaluate({
      name: "flaky",
      tasks: [{ id: "a" }],
      runDir,
      onEvent: (event) => event._tag === "RolloutRetried" && retried.push(event),
      solve: () => {
        calls++
        if (calls === 1) throw new RetryableError("rate limited", { retryAfterMs: 10 })
        return { score: 1 }
      },
    })
    expect(calls).toBe(2)
    expect(outcome.summary.ok).toBe(1)
    expect(retried).toMatchObject([
      { _tag: "RolloutRetried", errorKind: "solver", error: "RetryableError: rate limited" },
    ])
    expect(resultsIn(runDir)).toMatchObject([{ task_id: "a", status: "ok", score: 1, retries: 1 }])
  })

  it("records anything else thrown as an error of kind solver, never retried", async () => {
    const runDir = freshRunDir()
    let calls = 0
    const outcome = await evaluate({
      name: "broken",
      tasks: [{ id: "a" }, { id: "b" }],
      runDir,
      solve: (task) => {
        calls++
        if (task.id === "a") throw new TypeError("cannot read the answer")
        return { score: Number.NaN }
      },
    })
    expect(calls).toBe(2)
    expect(outcome.summary.errors_by_kind).toEqual({ solver: 2 })
    const byId = new Map(resultsIn(runDir).map((r) => [r.task_id, r]))
    expect(byId.get("a")).toMatchObject({ status: "error", error_kind: "solver", retries: 0 })
    expect(byId.get("a")?.error).toBe("TypeError: cannot read the answer")
    expect(byId.get("b")?.error).toMatch(/solve must return \{ score: <finite number> \}; got score null/)
  })

  it("aborts the context's signal when a rollout times out, and records a timeout", async () => {
    const runDir = freshRunDir()
    const reasons: Array<unknown> = []
    const outcome = await evaluate({
      name: "slow",
      tasks: [{ id: "a" }],
      timeoutSeconds: 0.2,
      maxRetries: 0,
      runDir,
      solve: (_task, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            reasons.push(ctx.signal.reason)
            reject(ctx.signal.reason)
          })
        }),
    })
    expect(reasons).toHaveLength(1)
    expect((reasons[0] as DOMException).name).toBe("AbortError")
    expect(outcome.summary.errors_by_kind).toEqual({ timeout: 1 })
    expect(resultsIn(runDir)).toMatchObject([{ task_id: "a", error_kind: "timeout", error: "no result within 0.2 s" }])
  })

  it("records, counts and prices the model calls a solver makes through ctx.inferenceUrl", async () => {
    const model = await createBaselineModel().listen()
    try {
      const runDir = freshRunDir()
      const inferenceUrls: Array<string> = []
      const outcome = await evaluate({
        name: "model",
        tasks: [{ id: "q1" }, { id: "q2" }],
        attempts: 2,
        runDir,
        model: { baseUrl: model.url, provider: "local" },
        pricing: [{ provider: "local", model: "baseline", price: { input: 1e-6, output: 2e-6 } }],
        solve: async (task, ctx) => {
          inferenceUrls.push(ctx.inferenceUrl)
          const response = await fetch(`${ctx.inferenceUrl}/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ model: "baseline", messages: [{ role: "user", content: `Say hi to ${task.id}` }] }),
            signal: ctx.signal,
          })
          const body = (await response.json()) as { choices: Array<{ message: { content: string } }> }
          return { score: 1, answer: body.choices[0]?.message.content }
        },
      })
      // One correlation id per rollout, on a loopback interceptor, never the model's own URL.
      expect(new Set(inferenceUrls).size).toBe(4)
      for (const url of inferenceUrls) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cid_[0-9a-f]+\/v1$/)
      const calls = callsIn(runDir)
      expect(calls).toHaveLength(4)
      expect(calls.every((c) => c.outcome === "ok" && c.provider === "local" && c.model === "baseline")).toBe(true)
      const results = resultsIn(runDir)
      for (const result of results) {
        const call = calls.find((c) => c.rollout_id === result.run_id)
        expect(call).toBeDefined()
        expect(result.tokens).toBe(call?.usage?.total_tokens)
        expect(result.cost_usd).toBe(call?.cost_usd)
        expect(result.cost_usd).toBeGreaterThan(0)
      }
      expect(outcome.summary.tokens.total).toBe(calls.reduce((sum, c) => sum + (c.usage?.total_tokens ?? 0), 0))
      expect(outcome.summary.cost_usd.rollouts_priced).toBe(4)
    } finally {
      await model.close()
    }
  })

  it("a solver that throws after every model call failed records the model's failure, retried as a system error", async () => {
    const gone = await createBaselineModel().listen()
    await gone.close()
    const runDir = freshRunDir()
    let tries = 0
    const outcome = await evaluate({
      name: "model-down",
      tasks: [{ id: "q" }],
      maxRetries: 1,
      runDir,
      model: { baseUrl: gone.url },
      solve: async (_task, ctx) => {
        tries++
        const response = await fetch(`${ctx.inferenceUrl}/chat/completions`, {
          method: "POST",
          body: JSON.stringify({ model: "baseline", messages: [{ role: "user", content: "hi" }] }),
        })
        const body = (await response.json()) as { choices: Array<unknown> }
        return { score: body.choices.length }
      },
    })
    expect(tries).toBe(2)
    expect(outcome.summary.errors_by_kind).toEqual({ http_5xx: 1 })
    expect(resultsIn(runDir)[0]?.error).toMatch(/^no model call succeeded \(1 failed\)/)
    expect(callsIn(runDir).map((c) => c.outcome)).toEqual(["error", "error"])
  })

  it("without a model, reading ctx.inferenceUrl fails the rollout with a message naming the option", async () => {
    const runDir = freshRunDir()
    await evaluate({
      name: "no-model",
      tasks: [{ id: 1 }],
      runDir,
      solve: (_task, ctx) => ({ score: ctx.inferenceUrl.length }),
    })
    expect(resultsIn(runDir)[0]?.error).toMatch(/ctx\.inferenceUrl needs evaluate's `model` option/)
  })

  it("resumes a stopped run from its run directory: only the missing (task, attempt) keys run", async () => {
    const runDir = freshRunDir()
    const tasks = Array.from({ length: 6 }, (_, i) => ({ id: `t${i}` }))
    const stop = new AbortController()
    const first: Array<string> = []
    const stopped = await evaluate({
      name: "resumable",
      tasks,
      attempts: 2,
      concurrency: 1,
      runDir,
      signal: stop.signal,
      solve: (task, ctx) => {
        first.push(`${task.id}/${ctx.attempt}`)
        if (first.length === 3) stop.abort()
        return { score: 1 }
      },
    })
    expect(stopped.interrupted).toBe(true)
    expect(stopped.summary.completed).toBe(3)

    // The same tasks in another order: each keeps the seed its stored results have.
    const second: Array<string> = []
    const resumed = await evaluate({
      name: "resumable",
      tasks: [...tasks].reverse(),
      attempts: 2,
      runDir,
      solve: (task, ctx) => {
        second.push(`${task.id}/${ctx.attempt}`)
        return { score: 0 }
      },
    })
    expect(resumed.runId).toBe(stopped.runId)
    expect(resumed.interrupted).toBe(false)
    expect(second).toHaveLength(9)
    expect(second.filter((key) => first.includes(key))).toEqual([])
    expect(resumed.summary.completed).toBe(12)
    expect(resumed.summary.metrics.mean_score).toBeCloseTo(3 / 12, 10)
    const keys = resultsIn(runDir).map((r) => `${r.task_id}/${r.attempt}`)
    expect(new Set(keys).size).toBe(12)
    expect(keys).toHaveLength(12)
  })

  it("refuses to resume a run directory of another eval", async () => {
    const runDir = freshRunDir()
    await evaluate({ name: "one", tasks: [{ id: 1 }], runDir, solve: () => ({ score: 1 }) })
    await expect(evaluate({ name: "two", tasks: [{ id: 1 }], runDir, solve: () => ({ score: 1 }) })).rejects.toThrow(
      `evaluate: runDir ${runDir} holds the run of "one", not of "two"`,
    )
  })

  it("reads tasks from an async iterable", async () => {
    async function* stream() {
      for (let i = 0; i < 5; i++) yield { id: i, value: i * 2 }
    }
    const outcome = await evaluate({
      name: "streamed",
      tasks: stream(),
      runDir: freshRunDir(),
      solve: (task) => ({ score: task.value % 4 === 0 ? 1 : 0 }),
    })
    expect(outcome.summary.completed).toBe(5)
    expect(outcome.summary.metrics.mean_score).toBeCloseTo(3 / 5, 10)
  })

  it("rejects bad options before any rollout, naming the option", async () => {
    const solve = () => ({ score: 1 })
    await expect(evaluate({ name: "dup", tasks: [{ id: "a" }, { id: "a" }], solve })).rejects.toThrow(
      'evaluate: tasks[1].id: "a" is also the id of tasks[0]',
    )
    await expect(evaluate({ name: "noid", tasks: [{ id: "a" }, {} as { id: string }], solve })).rejects.toThrow(
      "evaluate: tasks[1].id: expected a non-empty string or a finite number, got undefined",
    )
    await expect(evaluate({ name: "zero", tasks: [{ id: "a" }], attempts: 0, solve })).rejects.toThrow(
      "evaluate: attempts: expected a positive integer, got 0",
    )
  })
})

describe("ctx.grade with model graders", () => {
  it("in evaluate(): ctx.grade asks evaluate's judge, whose calls are the rollout's, stored apart and priced", async () => {
    const baseline = await createBaselineModel().listen()
    try {
      const runDir = mkdtempSync(join(tmpdir(), "proctor-ctx-judge-"))
      const rubric = { type: "rubric", rubric: "The answer is the correct sum, as a bare number.", range: [1, 5] }
      const outcome = await evaluate({
        name: "ctx-judge",
        runDir,
        tasks: [
          { id: "a", question: "What is 2 + 2?", answer: "4" },
          { id: "b", question: "What is 3 + 3?", answer: "7" },
        ],
        judge: { model: "baseline-judge", inference_url: `${baseline.url}/v1` },
        pricing: [{ provider: null, model: "baseline-judge", price: { input: 1, output: 2 } }],
        solve: async (task, ctx) => {
          const graded = await ctx.grade([rubric], { answer: task.answer, item: task, prompt: task.question })
          return { score: graded.score, answer: task.answer }
        },
      })
      expect(outcome.summary.completed).toBe(2)
      const calls = callsIn(runDir)
      expect(calls).toHaveLength(2)
      expect(calls.every((call) => call.role === "judge" && call.grader === "rubric" && call.cost_usd! > 0)).toBe(true)
      // Each judge call is its rollout's, and the baseline judge marks the wrong sum down.
      expect(calls.map((call) => call.seed).sort()).toEqual([0, 1])
      expect(outcome.summary.metrics.mean_score).toBeGreaterThan(0)
      expect(outcome.summary.metrics.mean_score).toBeLessThan(1)
      expect(outcome.summary.judge?.calls).toBe(2)
    } finally {
      await baseline.close()
    }
  })

  it("in evaluate(): a model grader without a judge is the rollout's verifier error, its line naming why", async () => {
    const runDir = mkdtempSync(join(tmpdir(), "proctor-ctx-nojudge-"))
    const outcome = await evaluate({
      name: "ctx-nojudge",
      runDir,
      tasks: [{ id: "a" }],
      maxRetries: 0,
      solve: async (_task, ctx) => {
        const graded = await ctx.grade({ type: "rubric", rubric: "Is it right?" }, { answer: "4" })
        return { score: graded.score }
      },
    })
    expect(outcome.summary.errors_by_kind).toEqual({ verifier: 1 })
    expect(resultsIn(runDir)[0]?.error).toContain("a model grader needs a judge")
  })

  it("evaluate's judge option is checked: a bad key is one line naming it", async () => {
    const failed = await evaluate({
      name: "bad-judge",
      tasks: [{ id: "a" }],
      judge: { model: "j", inference_url: "not a url" } as never,
      solve: () => ({ score: 1 }),
    }).then(
      () => "ran",
      (error: Error) => error.message,
    )
    expect(failed).toMatch(/^evaluate: judge\.inference_url: /)
  })
})
