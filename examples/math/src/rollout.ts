import {
  type ChatCompletion,
  ChatCompletionError,
  type ChatMessage,
  chatCompletion,
  type LmCall,
  type ReceivedRolloutRequest,
  type RolloutContext,
  type RolloutResult,
  type RolloutStep,
  sessionTrace,
  TaskAppHttpError,
} from "@proctor/task-app"
import { problemForSeed } from "./problems.js"
import { MATH_TOOLS, runTool } from "./tools.js"

export const SYSTEM_PROMPT =
  "Solve the arithmetic word problem. Use the calculator tool for arithmetic, then call submit_answer with the final number."

/** Keeps the problem in the last user message, where policies (the baseline model among them) look for it. */
const nudge = (question: string) => `Call submit_answer with the final number. The problem again: ${question}`

const numberParam = (config: Record<string, unknown>, key: string) =>
  typeof config[key] === "number" ? { [key]: config[key] } : {}

/**
 * The model's failure decides who owns it: unreachable, overloaded (5xx) or rate limited (429) is the
 * system's, answered with a 5xx so proctor retries the rollout (a 429's `Retry-After` is passed on); any
 * other answer (a 4xx: bad model name, bad key) is the policy's, and the rollout scores 0.
 */
const upstreamFailure = (error: ChatCompletionError) =>
  new TaskAppHttpError({
    status: error.status === 429 ? 503 : 502,
    code: error.status === 429 ? "upstream_rate_limited" : "upstream_unavailable",
    message: error.message,
    headers: error.retryAfter === undefined ? {} : { "retry-after": error.retryAfter },
  })

/**
 * What the assistant said, minus provider extras a strict upstream would reject when it is sent back;
 * content may be null only beside tool calls.
 */
const assistantMessage = (message: ChatMessage): ChatMessage =>
  message.tool_calls === undefined || message.tool_calls.length === 0
    ? { role: "assistant", content: message.content ?? "" }
    : { role: "assistant", content: message.content ?? null, tool_calls: message.tool_calls }

/** Solves one seed's problem with the policy's model: up to `maxTurns` calls, ending at `submit_answer`. */
export const mathRollout =
  (maxTurns: number) =>
  async (request: ReceivedRolloutRequest, context: RolloutContext): Promise<RolloutResult> => {
    const seed = request.env.seed ?? 0
    const problem = problemForSeed(seed)
    const config = request.policy.config ?? {}
    // The app `requires` it: the SDK answered 400 before calling this when it was missing.
    const inferenceUrl = String(config.inference_url)
    const model = typeof config.model === "string" ? config.model : undefined
    const apiKey = typeof config.api_key === "string" ? config.api_key : undefined
    const params = {
      ...(model === undefined ? {} : { model }),
      ...numberParam(config, "temperature"),
      ...numberParam(config, "max_completion_tokens"),
      tools: MATH_TOOLS,
      tool_choice: "auto",
    }

    const messages: ChatMessage[] = [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: problem.question },
    ]
    const calls: LmCall[] = []
    const steps: RolloutStep[] = []
    let submitted: number | undefined
    let modelError: { readonly message: string; readonly status: number | undefined } | undefined
    let tokens = 0

    for (let turn = 0; turn < maxTurns && submitted === undefined; turn++) {
      const sent = [...messages]
      const startedAt = new Date()
      let completion: ChatCompletion
      try {
        completion = await chatCompletion({
          inferenceUrl,
          body: { ...params, messages: sent },
          apiKey,
          signal: context.signal,
        })
      } catch (error) {
        if (!(error instanceof ChatCompletionError)) throw error
        if (error.retryable) throw upstreamFailure(error)
        modelError = { message: error.message, status: error.status }
        break
      }
      calls.push({ messages: sent, completion, startedAt, ...(model === undefined ? {} : { model }) })
      tokens += completion.usage?.total_tokens ?? 0
      const choice = completion.choices[0]
      if (choice?.message === undefined) {
        modelError = { message: "the model answered without a message", status: undefined }
        break
      }
      messages.push(assistantMessage(choice.message))
      const toolCalls = choice.message.tool_calls ?? []
      const toolResults = toolCalls.map((call) => {
        const outcome = runTool(call)
        messages.push({ role: "tool", tool_call_id: call.id, content: outcome.content })
        if (submitted === undefined && outcome.answer !== undefined) submitted = outcome.answer
        return { name: call.function.name, content: outcome.content }
      })
      if (toolCalls.length === 0) messages.push({ role: "user", content: nudge(problem.question) })
      steps.push({
        obs: { turn, content: choice.message.content ?? null, tool_results: toolResults },
        tool_calls: toolCalls,
        done: submitted !== undefined,
        truncated: submitted === undefined && turn === maxTurns - 1,
        info: { usage: completion.usage ?? null, finish_reason: choice.finish_reason ?? null },
      })
    }

    const correct = submitted !== undefined && Math.abs(submitted - problem.answer) < 1e-9
    const score = correct ? 1 : 0
    return {
      score,
      steps,
      final: { submitted_answer: submitted ?? null, correct },
      details: {
        template: problem.template,
        question: problem.question,
        expected_answer: problem.answer,
        submitted_answer: submitted ?? null,
        correct,
        turns: calls.length,
        tokens,
        ...(modelError === undefined ? {} : { error: modelError.message, upstream_status: modelError.status ?? null }),
      },
      trace:
        request.record?.return_trace === true
          ? sessionTrace({ sessionId: request.run_id, calls, metadata: { app_id: "math", seed, model: model ?? null } })
          : null,
    }
  }
