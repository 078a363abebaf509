import { randomFillSync } from "node:crypto"
import { forEachSeed } from "@proctor/bench-shared/bareRollouts"
import { rolloutBody as sharedRolloutBody } from "@proctor/bench-shared/rolloutBody"

// What every bare loop sends and checks. Nothing from the rest of the harness: `bareLoopProcess.ts` runs a loop as
// a process of its own, and its start-up must be a bare script's.

const hexPool = Buffer.alloc(8192)
let hexOffset = hexPool.length
const randomHex = (bytes: number): string => {
  if (hexOffset + bytes > hexPool.length) {
    randomFillSync(hexPool)
    hexOffset = 0
  }
  const hex = hexPool.toString("hex", hexOffset, hexOffset + bytes)
  hexOffset += bytes
  return hex
}

/** The body `proctor eval --url URL --seeds …` sends, built and serialised per request as proctor does. */
export const rolloutBody = (seed: number): string => sharedRolloutBody(`eval-seed-${seed}-${randomHex(4)}`, seed)

export const REQUEST_HEADERS = { "content-type": "application/json", accept: "application/json" }

interface RolloutAnswer {
  readonly metrics?: { readonly outcome_score?: number }
}

/** The answer must be the zero-work app's: status 200 and score = seed % 2. */
export const isExpected = (status: number, text: string, seed: number) =>
  status === 200 && (JSON.parse(text) as RolloutAnswer).metrics?.outcome_score === seed % 2

/** `concurrency` workers taking seeds 0..n-1 in turn: how many answers were not the expected one. */
export const countWrong = async (
  n: number,
  concurrency: number,
  one: (seed: number) => Promise<boolean>,
): Promise<number> => {
  let wrong = 0
  await forEachSeed(n, concurrency, async (seed) => {
    if (!(await one(seed))) wrong++
  })
  return wrong
}
