import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { jsonLinesOf, resultsIn } from "@proctor/test-kit"
import { Either } from "effect"
import { createBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { evaluate } from "../src/eval/Evaluate.js"
import { RetryableError } from "../src/solver/RetryableError.js"
import { decodeModelCalls } from "../src/store/ModelCallCodec.js"
import type { RunSummary } from "../src/summary/Summary.js"

const roundUsd = (usd: number) => Math.round(usd * 1e10) / 1e10

describe("token and cost totals count every model call that was made", () => {
  it("summary.json's totals equal model_calls.jsonl's sums; errored rollouts' calls are reported apart", async () => {
    const model = await createBaselineModel().listen()
    try {
      const runDir = join(mkdtempSync(join(tmpdir(), "proctor-totals-")), "run")
      const triesOf = new Map<string, number>()
      await evaluate({
        name: "totals",
        tasks: [{ id: "ok" }, { id: "broken" }, { id: "flaky" }, { id: "fine" }],
        runDir,
        maxRetries: 1,
        model: { baseUrl: model.url, provider: "local" },
        pricing: [{ provider: "local", model: "baseline", price: { input: 1e-6, output: 2e-6 } }],
        solve: async (task, ctx) => {
          const tries = (triesOf.get(task.id) ?? 0) + 1
          triesOf.set(task.id, tries)
          const response = await fetch(`${ctx.inferenceUrl}/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ model: "baseline", messages: [{ role: "user", content: `Say hi to ${task.id}` }] }),
          })
          await response.json()
          // The call was made (and paid for) either way.
          if (task.id === "broken") throw new TypeError("cannot read the answer")
          if (task.id === "flaky" && tries === 1) throw new RetryableError("try again")
          return { score: 1 }
        },
      })
      const calls = Either.getOrThrow(decodeModelCalls(jsonLinesOf(join(runDir, "model_calls.jsonl"))))
      expect(calls).toHaveLength(5)
      const summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8")) as RunSummary
      const tokensOf = (list: typeof calls) => list.reduce((sum, c) => sum + (c.usage?.total_tokens ?? 0), 0)
      const costOf = (list: typeof calls) => roundUsd(list.reduce((sum, c) => sum + (c.cost_usd ?? 0), 0))
      expect(summary.tokens.total).toBe(tokensOf(calls))
      expect(summary.cost_usd.total).toBe(costOf(calls))
      const broken = resultsIn(runDir).find((r) => r.task_id === "broken")
      const onErrors = calls.filter((c) => c.rollout_id === broken?.run_id)
      expect(onErrors).toHaveLength(1)
      expect(summary.tokens.spent_on_errors).toBe(tokensOf(onErrors))
      expect(summary.cost_usd.spent_on_errors).toBe(costOf(onErrors))
    } finally {
      await model.close()
    }
  })
})
