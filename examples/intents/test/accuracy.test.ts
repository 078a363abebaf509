import { afterAll, beforeAll, expect, it } from "vitest"
import { loadDataset } from "../src/index.js"
import { type Loopback, postRollout, rolloutRequest, startLoopback } from "./helpers.js"

let loopback: Loopback

beforeAll(async () => {
  loopback = await startLoopback()
})
afterAll(() => loopback.close())

it("the keyword baseline is right often, but not always, over every seed", async () => {
  const { utterances } = loadDataset()
  const scores: number[] = []
  const misses: string[] = []
  const seeds = utterances.map((_, seed) => seed)
  for (let start = 0; start < seeds.length; start += 32) {
    const batch = seeds.slice(start, start + 32)
    const results = await Promise.all(
      batch.map(async (seed) => {
        const response = await postRollout(loopback.taskApp.url, rolloutRequest(seed, loopback.model.url))
        expect(response.status).toBe(200)
        return (await response.json()) as { metrics: { outcome_score: number; details: Record<string, unknown> } }
      }),
    )
    for (const [offset, result] of results.entries()) {
      scores.push(result.metrics.outcome_score)
      const { label, predicted } = result.metrics.details
      if (result.metrics.outcome_score === 0)
        misses.push(`${label} → ${predicted}: ${utterances[batch[offset]!]!.text}`)
    }
  }
  const accuracy = scores.reduce((sum, score) => sum + score, 0) / scores.length
  console.log(`baseline accuracy on intents: ${(accuracy * 100).toFixed(1)}% of ${scores.length}`)
  if (process.env.SHOW_MISSES) console.log(misses.sort().join("\n"))
  expect(accuracy).toBeGreaterThanOrEqual(0.55)
  expect(accuracy).toBeLessThanOrEqual(0.9)
})
