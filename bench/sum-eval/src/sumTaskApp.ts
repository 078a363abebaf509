/**
 * The sum eval's task app, on proctor's task-app SDK: seed N asks the policy's model "What is A + B? Answer
 * with the number only." (one chat completion through `policy.config.inference_url`) and scores 1 when the
 * answer is the sum. Run as its own process (`node dist/sumTaskApp.js`); it prints `{"url": …}` on one stdout
 * line once it listens on 127.0.0.1, serves callers presenting ENVIRONMENT_API_KEY, and exits on SIGTERM/SIGINT.
 */
import { ChatCompletionError, chatCompletion, createTaskApp, TaskAppHttpError } from "@proctor/task-app"
import { sumQuestion } from "./sumQuestion.js"

const DESCRIPTION = "One sum per seed, answered in one model call; score 1 when the answer is the sum."

const app = createTaskApp({
  appId: "sum",
  name: "Sum",
  description: DESCRIPTION,
  version: "0.1.0",
  taskset: { id: "sum", description: DESCRIPTION, seeds: "any integer" },
  taskInfo: (seed) => ({ task_metadata: { seed, question: sumQuestion(seed).prompt } }),
  requires: ["policy.config.inference_url"],
  rollout: async (request, context) => {
    const question = sumQuestion(request.env.seed ?? 0)
    const config = request.policy.config ?? {}
    const model = typeof config.model === "string" ? config.model : undefined
    let completion: Awaited<ReturnType<typeof chatCompletion>>
    try {
      completion = await chatCompletion({
        inferenceUrl: String(config.inference_url),
        body: { ...(model === undefined ? {} : { model }), messages: [{ role: "user", content: question.prompt }] },
        signal: context.signal,
      })
    } catch (error) {
      if (!(error instanceof ChatCompletionError)) throw error
      // The bench's own model failing is the system's failure, not the policy's: proctor retries a 502.
      throw new TaskAppHttpError({ status: 502, code: "upstream_unavailable", message: error.message })
    }
    const answer = completion.choices[0]?.message.content?.trim() ?? ""
    const correct = answer === String(question.answer)
    return {
      score: correct ? 1 : 0,
      steps: [{ obs: { answer }, done: true, info: { usage: completion.usage ?? null } }],
      final: { answer, correct },
      details: {
        question: question.prompt,
        expected: question.answer,
        answer,
        tokens: completion.usage?.total_tokens ?? null,
      },
    }
  },
})

const running = await app.listen({ port: 0 })
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0))
  })
}
