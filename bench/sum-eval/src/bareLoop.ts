/**
 * The bare loop the sum eval's `proctor eval` is measured against, as its own process: POST /rollout to the
 * task app for seeds 0…N-1 at a fixed concurrency over `node:http` keep-alive, with the body proctor sends
 * (bench/shared's rolloutBody) and `inference_url` pointing straight at the model, so the task
 * app calls the model itself. Prints `{"rollouts": N, "mean_score": S}`; exits 1 on any answer that is not a
 * rollout response.
 *
 * `node dist/bareLoop.js --app URL --model-url URL --model NAME --prompts N --concurrency C`; the task app's
 * key is ENVIRONMENT_API_KEY.
 */
import { randomBytes } from "node:crypto"
import { Agent } from "node:http"
import { parseArgs } from "node:util"
import { forEachSeed, postRollout } from "@proctor/bench-shared/bareRollouts"
import { rolloutBody } from "@proctor/bench-shared/rolloutBody"

// Node's own parser, not bench/shared's flags: loading the whole bench harness would add to this process's start-up.
const { values } = parseArgs({
  options: {
    app: { type: "string" },
    "model-url": { type: "string" },
    model: { type: "string" },
    prompts: { type: "string" },
    concurrency: { type: "string" },
  },
})
if (values.app === undefined || values["model-url"] === undefined || values.model === undefined) {
  throw new Error("--app, --model-url and --model are required")
}
const app = new URL(values.app)
const modelUrl = values["model-url"]
const model = values.model
const prompts = Number(values.prompts ?? 2_000)
const concurrency = Number(values.concurrency ?? 32)
const key = process.env.ENVIRONMENT_API_KEY ?? ""

const bodyFor = (seed: number): string =>
  rolloutBody(`sum-seed-${seed}-${randomBytes(4).toString("hex")}`, seed, {
    envName: "sum",
    policyName: "sum",
    policyConfig: { model, inference_url: modelUrl },
  })

const agent = new Agent({ keepAlive: true, maxSockets: concurrency })

const headers = { "content-type": "application/json", accept: "application/json", "x-api-key": key }
const target = { host: app.hostname, port: app.port }

const rollout = async (seed: number): Promise<number> => {
  const { status, text } = await postRollout(agent, target, headers, bodyFor(seed))
  const score = (JSON.parse(text) as { metrics?: { outcome_score?: unknown } }).metrics?.outcome_score
  if (status !== 200 || typeof score !== "number") throw new Error(`seed ${seed}: ${status} ${text.slice(0, 300)}`)
  return score
}

let total = 0
await forEachSeed(prompts, concurrency, async (seed) => {
  // Awaited first: `total += await …` would read `total` before the wait and lose the other workers' scores.
  const score = await rollout(seed)
  total += score
})
agent.destroy()
process.stdout.write(`${JSON.stringify({ rollouts: prompts, mean_score: total / prompts })}\n`)
