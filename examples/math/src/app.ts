import { createTaskApp, type TaskApp, type TaskAppDefinition } from "@proctor/task-app"
import { problemForSeed, TEMPLATE_IDS } from "./problems.js"
import { mathRollout } from "./rollout.js"
import { CALCULATOR, SUBMIT_ANSWER } from "./tools.js"

export interface MathAppOptions {
  readonly apiKey?: TaskAppDefinition["apiKey"]
  /** `"none"` serves every caller without a key (the SDK warns); the default needs one. */
  readonly auth?: TaskAppDefinition["auth"]
  /** Model calls per rollout before it ends unsubmitted (default 6). */
  readonly maxTurns?: number
  readonly logger?: TaskAppDefinition["logger"]
}

const DESCRIPTION = "Arithmetic word problems, generated from the seed, solved with a calculator tool."

/** The example task app: one seed, one word problem; score 1 when the submitted answer is right. */
export const createMathApp = (options: MathAppOptions = {}): TaskApp => {
  const maxTurns = options.maxTurns ?? 6
  return createTaskApp({
    appId: "math",
    name: "Math word problems",
    description: DESCRIPTION,
    version: "0.1.0",
    taskset: { id: "math", description: DESCRIPTION, seeds: "any integer", templates: TEMPLATE_IDS },
    // The answer stays out: task info is what a policy may see before it tries.
    taskInfo: (seed) => {
      const { template, steps, question } = problemForSeed(seed)
      return { task_metadata: { seed, template, steps, question } }
    },
    inference: { tools: [CALCULATOR, SUBMIT_ANSWER] },
    limits: { max_turns: maxTurns },
    requires: ["policy.config.inference_url"],
    rollout: mathRollout(maxTurns),
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  })
}
