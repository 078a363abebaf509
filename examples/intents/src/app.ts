import {
  type ChatCompletion,
  ChatCompletionError,
  chatCompletion,
  createTaskApp,
  type ReceivedRolloutRequest,
  type RolloutContext,
  type RolloutResult,
  sessionTrace,
  type TaskApp,
  TaskAppHttpError,
} from "@proctor/task-app"
import { exampleForSeed, type IntentDataset, loadDataset } from "./dataset.js"
import { grade } from "./grade.js"
import { chatRequestBody } from "./prompt.js"

export interface IntentsAppOptions {
  /** Defaults to the committed `data/intents.json`. */
  readonly dataset?: IntentDataset
  /** Keys callers must present; defaults to `ENVIRONMENT_API_KEY`, as every proctor task app does. */
  readonly apiKey?: string | ReadonlyArray<string>
  /** `"none"` serves every caller without a key (the SDK warns); the default needs one. */
  readonly auth?: "key" | "none"
  /**
   * Bearer key for the model. Opt-in rather than read from the environment, because `inference_url` comes
   * from the caller and would otherwise receive the task app's provider key.
   */
  readonly inferenceApiKey?: string
}

export const APP_ID = "intents"

/**
 * The model's failure decides the rollout's status: a retryable one (unreachable, 5xx, 429, garbled) is a
 * 5xx so the runner tries again, passing `Retry-After` on; a 4xx means the request itself was refused
 * (bad model name, bad key) and retrying will not help.
 */
const upstreamFailure = (error: ChatCompletionError): TaskAppHttpError => {
  const headers = error.retryAfter === undefined ? {} : { "retry-after": error.retryAfter }
  if (!error.retryable) {
    return new TaskAppHttpError({ status: 424, code: "model_request_rejected", message: error.message })
  }
  const status = error.status === 429 ? 503 : 502
  const code = error.status === 429 ? "model_rate_limited" : "model_unavailable"
  return new TaskAppHttpError({ status, code, message: error.message, headers })
}

const callModel = async (options: Parameters<typeof chatCompletion>[0]): Promise<ChatCompletion> => {
  try {
    return await chatCompletion(options)
  } catch (error) {
    throw error instanceof ChatCompletionError ? upstreamFailure(error) : error
  }
}

const rollout =
  (dataset: IntentDataset, known: ReadonlySet<string>, inferenceApiKey: string | undefined) =>
  async (request: ReceivedRolloutRequest, context: RolloutContext): Promise<RolloutResult> => {
    const example = exampleForSeed(dataset, request.env.seed ?? 0)
    const config = request.policy.config ?? {}
    const body = chatRequestBody(dataset, example.text, config)
    const startedAt = new Date()
    const completion = await callModel({
      // The app `requires` it: the SDK answered 400 before calling this when it was missing.
      inferenceUrl: String(config.inference_url),
      body,
      apiKey: inferenceApiKey,
      signal: context.signal,
    })
    const choice = completion.choices[0]
    const graded = grade(choice?.message, example.intent, known)
    const usage = completion.usage ?? {}
    const verdict = { label: example.intent, predicted: graded.predicted, reason: graded.reason }
    const trace = sessionTrace({
      sessionId: context.traceCorrelationId,
      calls: [{ messages: body.messages as ReadonlyArray<unknown>, completion, startedAt }],
      metadata: { app_id: APP_ID, seed: request.env.seed ?? 0, utterance_index: example.index, ...verdict },
    })
    return {
      score: graded.score,
      steps: [
        {
          obs: { utterance: example.text },
          tool_calls: choice?.message.tool_calls ?? [],
          reward: graded.score,
          done: true,
          info: { usage, finish_reason: choice?.finish_reason ?? null, ...verdict },
        },
      ],
      final: { utterance: example.text, ...verdict },
      details: {
        ...verdict,
        correct: graded.score === 1,
        utterance_index: example.index,
        tokens: usage.total_tokens ?? null,
      },
      ...(request.record?.return_trace === true ? { trace: { ...trace } } : {}),
    }
  }

/** Intent classification: one utterance per seed, one forced `classify_intent` call, exact-match score. */
export const createIntentsApp = (options: IntentsAppOptions = {}): TaskApp => {
  const dataset = options.dataset ?? loadDataset()
  const names = dataset.intents.map((intent) => intent.name)
  return createTaskApp({
    appId: APP_ID,
    name: "Intent classification",
    description: `Classify a customer utterance into one of ${names.length} intents with the classify_intent tool.`,
    taskset: { name: APP_ID, intents: names, num_utterances: dataset.utterances.length },
    dataset: { id: APP_ID, num_intents: names.length, num_utterances: dataset.utterances.length },
    inference: { tools: ["classify_intent"], tool_choice: "classify_intent" },
    limits: { max_turns: 1 },
    taskInfo: (seed) => {
      const example = exampleForSeed(dataset, seed)
      return { task_metadata: { seed, utterance_index: example.index, utterance: example.text, label: example.intent } }
    },
    // The intents app calls the model itself.
    requires: ["policy.config.inference_url"],
    rollout: rollout(dataset, new Set(names), options.inferenceApiKey),
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.auth === undefined ? {} : { auth: options.auth }),
  })
}
