import { describe, expect, it } from "@effect/vitest"
import { testCall } from "@proctor/test-kit"
import type { ModelCall } from "../src/result/ModelCall.js"
import { callTotals } from "../src/solver/InterceptedSolver.js"

const call = (cost_usd: number | null, total_tokens: number): ModelCall =>
  testCall({
    usage: { prompt_tokens: null, completion_tokens: null, total_tokens, cached_tokens: null, reasoning_tokens: null },
    cost_usd,
  })

describe("callTotals", () => {
  it("sums a rollout's call costs without float noise (1e-10 USD)", () => {
    // 0.000025 + 0.0000339 is 0.000058899999999999995 in floating point
    expect(callTotals([call(0.000025, 10), call(0.0000339, 20)])).toEqual({ tokens: 30, cost_usd: 0.0000589 })
    // one unpriced call makes the rollout unpriced, not cheaper
    expect(callTotals([call(0.000025, 10), call(null, 20)]).cost_usd).toBeNull()
  })
})
