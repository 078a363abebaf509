import { mkdtempSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { testCall, waitFor } from "@proctor/test-kit"
import { Effect, Either, Fiber, Layer, PubSub, Queue, Random, Redacted, TestClock } from "effect"
import { createBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { publicConfig } from "../src/config/EvalRunConfig.js"
import { loadEvalConfig } from "../src/config/loadEvalConfig.js"
import { Interceptor, type InterceptorService } from "../src/interceptor/Interceptor.js"
import { serveInterceptor } from "../src/interceptor/serveInterceptor.js"
import { factGrader } from "../src/judge/factGrader.js"
import { JudgeClient } from "../src/judge/JudgeClient.js"
import { JudgedRollout } from "../src/judge/JudgedRollout.js"
import type { JudgeError } from "../src/judge/JudgeError.js"
import type { JudgeSettings } from "../src/judge/JudgeSettings.js"
import { judgeUpstream } from "../src/judge/JudgeSettings.js"
import { labelGrader } from "../src/judge/labelGrader.js"
import { pairwiseGrader } from "../src/judge/pairwiseGrader.js"
import { rubricGrader } from "../src/judge/rubricGrader.js"
import type { ModelCall } from "../src/result/ModelCall.js"
import { sumCallSpending } from "../src/store/internal/callSpending.js"
import { configFromManifest } from "../src/store/RunDirectory.js"

const JUDGE_MODEL = "baseline-judge"
/** Policy tokens at $1 per million, the judge's at $2 per million: the two prices tell the calls apart. */
const priceCall = (_provider: string | null, model: string | null, usage: ModelCall["usage"]) =>
  ((usage?.total_tokens ?? 0) * (model === JUDGE_MODEL ? 2 : 1)) / 1e6

const baselineModel = Effect.acquireRelease(
  Effect.promise(() => createBaselineModel().listen()),
  (model) => Effect.promise(model.close),
)

/** A served interceptor and a judge client on it whose upstream is `judgeUrl`. */
const judgeOn = (judgeUrl: string, settings: Partial<JudgeSettings> = {}) =>
  Effect.gen(function* () {
    const interceptor = yield* Interceptor.make({ priceCall })
    yield* serveInterceptor(interceptor)
    const recorded: Array<ModelCall> = []
    const judge = JudgeClient.make({
      interception: interceptor,
      runId: "run-1",
      recordCalls: (calls) => Effect.sync(() => recorded.push(...calls)),
      settings: { model: JUDGE_MODEL, ...settings },
      upstream: { baseUrl: judgeUrl, apiKey: Redacted.make("sk-judge-secret") },
      backoff: { baseMs: 1000, maxMs: 8000, maxRetryAfterMs: 8000 },
    })
    return { interceptor, judge, recorded }
  })

const sumItem = (a: number, b: number) => ({
  id: `${a}+${b}`,
  question: `What is ${a} + ${b}?`,
  reference: String(a + b),
})

/** The policy's answer to an item, asked through the interceptor as a rollout would. */
const policyAnswer = (interceptor: InterceptorService, question: string, seed: number) =>
  Effect.gen(function* () {
    const model = yield* baselineModel
    const opened = yield* interceptor.open({
      runId: "run-1",
      rolloutId: `run-1-seed-${seed}`,
      seed,
      attempt: 0,
      upstream: { baseUrl: model.url },
    })
    const answer = yield* Effect.promise(async () => {
      const response = await fetch(`${opened.inferenceUrl}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "baseline-policy", messages: [{ role: "user", content: question }] }),
      })
      const body = (await response.json()) as { choices: Array<{ message: { content: string } }> }
      return body.choices[0]!.message.content
    })
    yield* interceptor.close(opened.cid)
    return answer
  })

describe("judge calls through the run's interceptor", () => {
  it.scoped("are recorded as the judge's, on its own upstream and price, apart from the policy's", () =>
    Effect.gen(function* () {
      const model = yield* baselineModel
      const { interceptor, judge, recorded } = yield* judgeOn(model.url)
      const seen = yield* PubSub.subscribe(interceptor.calls)
      const item = sumItem(12, 30)
      const answer = yield* policyAnswer(interceptor, item.question, 7)
      const verdict = yield* rubricGrader(
        {
          type: "rubric",
          name: "quality",
          question: "question",
          rubric: "The answer is the correct sum, the number only.",
          range: [1, 5],
        },
        { answer, item },
      ).pipe(
        Effect.provideService(JudgeClient, judge),
        Effect.provideService(JudgedRollout, { rolloutId: "run-1-seed-7", seed: 7, attempt: 0 }),
      )
      const calls = [yield* Queue.take(seen), yield* Queue.take(seen)]
      const [policy, judged] = calls as [ModelCall, ModelCall]
      expect(policy.role).toBeUndefined()
      expect(judged).toMatchObject({ role: "judge", grader: "quality", seed: 7, attempt: 0, model: JUDGE_MODEL })
      // Stored for the run (model_calls.jsonl) as it happened.
      expect(recorded).toEqual([judged])
      expect(judged.cost_usd).toBe((judged.usage!.total_tokens! * 2) / 1e6)
      expect(policy.cost_usd).toBe(policy.usage!.total_tokens! / 1e6)
      // The judge's key went upstream on its own upstream; no call records it.
      expect(JSON.stringify(calls)).not.toContain("sk-judge-secret")
      const details = verdict.details as { raw_score: number; judge: { spend: { calls: number; cost_usd: number } } }
      expect([1, 5]).toContain(details.raw_score)
      expect(verdict.score).toBe((details.raw_score - 1) / 4)
      expect(details.judge.spend).toMatchObject({ calls: 1, cost_usd: judged.cost_usd })
      expect((judged.request as { messages: Array<{ content: string }> }).messages[1]!.content).toContain(
        "[Answer]\n42",
      )
    }),
  )

  it.scoped("the baseline judge is wrong on a known share of items, the same ones every time", () =>
    Effect.gen(function* () {
      const model = yield* baselineModel
      const { judge } = yield* judgeOn(model.url)
      const items = Array.from({ length: 60 }, (_, i) => sumItem(i, 2 * i + 1))
      const grade = (answer: (item: ReturnType<typeof sumItem>) => string) =>
        Effect.forEach(items, (item) =>
          labelGrader(
            {
              type: "label",
              name: "correct",
              question: "question",
              instructions: "Is the answer the right number?",
              labels: ["correct", "incorrect"],
              passing: ["correct"],
            },
            { answer: answer(item), item },
          ).pipe(Effect.map((verdict) => verdict.passed)),
        ).pipe(Effect.provideService(JudgeClient, judge))
      const right = yield* grade((item) => item.reference)
      const again = yield* grade((item) => item.reference)
      const wrongAnswers = yield* grade((item) => String(Number(item.reference) + 1))
      expect(again).toEqual(right)
      const wrongShare = right.filter((passed) => !passed).length / items.length
      // One item in five (by the prompt's hash) gets the wrong verdict: about 20% of 60.
      expect(wrongShare).toBeGreaterThan(0.08)
      expect(wrongShare).toBeLessThan(0.35)
      expect(wrongAnswers.filter((passed) => passed).length / items.length).toBeLessThan(0.35)
    }),
  )

  it.scoped("fact and pairwise graders answer in their formats; pairwise records its random order", () =>
    Effect.gen(function* () {
      const model = yield* baselineModel
      const { judge } = yield* judgeOn(model.url)
      const items = Array.from({ length: 40 }, (_, i) => ({ ...sumItem(i, 5), other: String(i + 6) }))
      const facts = yield* Effect.forEach(items, (item) =>
        factGrader(
          { type: "fact", name: "fact", question: "question", reference: "reference" },
          { answer: item.reference, item },
        ),
      ).pipe(Effect.provideService(JudgeClient, judge))
      expect(new Set(facts.map((verdict) => (verdict.details as { label: string }).label))).toEqual(
        new Set(["same", "contradicts"]),
      )
      const pairs = yield* Effect.forEach(items, (item) =>
        pairwiseGrader(
          {
            type: "pairwise",
            name: "vs_other",
            question: "question",
            criteria: "The right sum wins.",
            other: "other",
            both_orders: true,
          },
          { answer: item.reference, item },
        ),
      ).pipe(Effect.provideService(JudgeClient, judge), Effect.withRandom(Random.make("pairwise")))
      const orders = pairs.map((verdict) => (verdict.details as { order: string }).order)
      expect(new Set(orders)).toEqual(new Set(["answer_first", "other_first"]))
      // Mostly won; the baseline's position bias (always "A" on its wrong items) costs some.
      const mean = pairs.reduce((total, verdict) => total + verdict.score, 0) / pairs.length
      expect(mean).toBeGreaterThan(0.6)
      expect(mean).toBeLessThan(1)
    }),
  )
})

/** A model upstream answering each call with the next of `contents` (a string body, or a status code). */
const scriptedJudge = (contents: ReadonlyArray<string | number>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      let hits = 0
      const keys: Array<string | undefined> = []
      const server = createServer((req, res) => {
        keys.push(req.headers.authorization)
        req.resume()
        req.on("end", () => {
          const next = contents[Math.min(hits, contents.length - 1)]!
          hits++
          if (typeof next === "number") {
            res.writeHead(next, { "content-type": "application/json" })
            return res.end(JSON.stringify({ error: { message: "no", type: "x", param: null, code: null } }))
          }
          res.writeHead(200, { "content-type": "application/json" })
          res.end(
            JSON.stringify({
              choices: [{ index: 0, message: { role: "assistant", content: next }, finish_reason: "stop" }],
              usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
            }),
          )
        })
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        server,
        hits: () => hits,
        keys: () => keys,
      }
    }),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve()))),
  )

const rubric = {
  type: "rubric",
  name: "quality",
  question: "question",
  rubric: "Good answers score high.",
  range: [1, 5],
} as const

describe("judge answers that do not parse or are out of range", () => {
  it.scoped("are retried with backoff until one is usable, every try recorded and spent", () =>
    Effect.gen(function* () {
      const upstream = yield* scriptedJudge([
        "I think it is fine",
        '{"score": 9}',
        'Sure: {"reasoning": "ok", "score": 4}',
      ])
      const { judge, recorded } = yield* judgeOn(upstream.url)
      const fiber = yield* rubricGrader(rubric, { answer: "x", item: { question: "q" } }).pipe(
        Effect.provideService(JudgeClient, judge),
        Effect.fork,
      )
      yield* Effect.promise(() => waitFor("the first try", () => upstream.hits() === 1))
      // The first retry waits 500–1000 ms (equal jitter on 1 s), the second 1–2 s: no call before the clock moves.
      expect(upstream.hits()).toBe(1)
      yield* TestClock.adjust("1 second")
      yield* Effect.promise(() => waitFor("the second try", () => upstream.hits() === 2))
      yield* TestClock.adjust("2 seconds")
      const verdict = yield* Fiber.join(fiber)
      expect(upstream.hits()).toBe(3)
      expect(verdict.score).toBe(0.75)
      expect(verdict.reason).toBe("ok")
      const details = verdict.details as { judge: { tries: number; spend: { calls: number; tokens: number } } }
      expect(details.judge.tries).toBe(3)
      expect(details.judge.spend).toMatchObject({ calls: 3, tokens: 45 })
      // Every try is stored, the unusable ones too: they were made and paid for.
      const calls = recorded
      expect(calls.map((call) => call.role)).toEqual(["judge", "judge", "judge"])
      // The judge's own key reached its upstream on every try; no recorded call holds it.
      expect(upstream.keys()).toEqual(Array(3).fill("Bearer sk-judge-secret"))
      expect(JSON.stringify(calls)).not.toContain("sk-judge-secret")
    }),
  )

  it.scoped("end in a judge error naming the reason once the retries are spent, never a score of 0", () =>
    Effect.gen(function* () {
      const upstream = yield* scriptedJudge(['{"score": 0}'])
      const { judge } = yield* judgeOn(upstream.url, { retries: 1 })
      const fiber = yield* rubricGrader(rubric, { answer: "x", item: { question: "q" } }).pipe(
        Effect.provideService(JudgeClient, judge),
        Effect.flip,
        Effect.fork,
      )
      yield* Effect.promise(() => waitFor("the first try", () => upstream.hits() === 1))
      yield* TestClock.adjust("1 second")
      const error: JudgeError = yield* Fiber.join(fiber)
      expect(error._tag).toBe("JudgeError")
      expect(error.reason).toBe("out_of_range")
      expect(error.kind).toBe("judge")
      expect(error.message).toBe("the judge's score 0 is outside [1, 5] (after 2 tries)")
      expect(upstream.hits()).toBe(2)
    }),
  )

  it.scoped("a judge that refuses the call (4xx) is not asked again; a 5xx is", () =>
    Effect.gen(function* () {
      const refusing = yield* scriptedJudge([400])
      const { judge } = yield* judgeOn(refusing.url)
      const refused = yield* labelGrader(
        {
          type: "label",
          name: "l",
          question: "question",
          instructions: "i",
          labels: ["yes", "no"],
          passing: ["yes"],
        },
        { answer: "x", item: {} },
      ).pipe(Effect.provideService(JudgeClient, judge), Effect.flip)
      expect(refused.reason).toBe("refused")
      expect(refusing.hits()).toBe(1)

      const failing = yield* scriptedJudge([503, '{"label": "yes"}'])
      const second = yield* judgeOn(failing.url)
      const fiber = yield* labelGrader(
        { type: "label", name: "l", question: "question", instructions: "i", labels: ["yes", "no"], passing: ["yes"] },
        { answer: "x", item: {} },
      ).pipe(Effect.provideService(JudgeClient, second.judge), Effect.fork)
      yield* Effect.promise(() => waitFor("the first try", () => failing.hits() === 1))
      yield* TestClock.adjust("1 second")
      expect((yield* Fiber.join(fiber)).passed).toBe(true)
    }),
  )
})

describe("a run's spending", () => {
  it("counts the judge's calls apart from the policy's, per rollout judged", async () => {
    const usage = (total_tokens: number) => ({
      prompt_tokens: null,
      completion_tokens: null,
      total_tokens,
      cached_tokens: null,
      reasoning_tokens: null,
    })
    const calls = [
      testCall({ seed: 0, usage: usage(100), cost_usd: 0.001 }),
      testCall({ seed: 1, usage: usage(100), cost_usd: 0.001 }),
      testCall({ seed: 0, usage: usage(40), cost_usd: 0.0004, role: "judge", grader: "quality" }),
      testCall({ seed: 0, usage: usage(40), cost_usd: 0.0004, role: "judge", grader: "quality" }),
      testCall({ seed: 1, usage: usage(40), cost_usd: null, role: "judge", grader: "quality" }),
    ]
    const path = join(mkdtempSync(join(tmpdir(), "proctor-judge-")), "model_calls.jsonl")
    writeFileSync(path, calls.map((call) => `${JSON.stringify(call)}\n`).join(""))
    const spending = await sumCallSpending(path, (key) => key.seed === 1)
    expect(spending).toMatchObject({ calls: 2, tokens: 200, costUsd: 0.002, errorTokens: 100 })
    expect(spending.judge).toEqual({ calls: 3, tokens: 120, metered: 3, costUsd: 0.0008, priced: 2, rollouts: 2 })
  })
})

describe("[eval.judge]", () => {
  const toml = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), "proctor-judge-")), "eval.toml")
    writeFileSync(path, `[eval]\nurl = "http://h:1"\nseeds = "0-1"\n${text}`)
    return path
  }

  it.effect("is stored with the run (model and parameters, a key's variable never a key) and read back", () =>
    Effect.gen(function* () {
      const path = toml(
        `[eval.judge]\nmodel = "gpt-4o-mini"\nprovider = "openai"\napi_key_env = "JUDGE_KEY"\nsamples = 3\n`,
      )
      const { config } = yield* loadEvalConfig({ configPath: path, env: { JUDGE_KEY: "sk-never-stored" } })
      expect(config.judge).toEqual({ model: "gpt-4o-mini", provider: "openai", api_key_env: "JUDGE_KEY", samples: 3 })
      const recorded = publicConfig(config)
      expect(JSON.stringify(recorded)).not.toContain("sk-never-stored")
      const manifest = { run_id: "r", created_at: "", config: recorded, task_app_api_key_set: false }
      expect(Either.getOrThrow(configFromManifest(manifest, undefined)).judge).toEqual(config.judge)
    }),
  )

  it.effect("a bad key is one line naming it, and the judge needs a model", () =>
    Effect.gen(function* () {
      const zero = yield* Effect.flip(
        loadEvalConfig({ configPath: toml(`[eval.judge]\nmodel = "m"\nsamples = 0\n`), env: {} }),
      )
      expect(zero.message).toMatch(/judge\.samples.*positive integer/)
      const modelless = yield* Effect.flip(loadEvalConfig({ configPath: toml(`[eval.judge]\nsamples = 2\n`), env: {} }))
      expect(modelless.message).toContain("judge.model")
    }),
  )
})

describe("the judge's upstream", () => {
  it("takes its key from api_key_env, and a provider's variable only for that provider's endpoint", () => {
    const env = { JUDGE_KEY: "k1", OPENAI_API_KEY: "k2" }
    const named = judgeUpstream({ model: "m", inference_url: "http://127.0.0.1:9/v1", api_key_env: "JUDGE_KEY" }, env)
    expect(named && Redacted.value(named.apiKey!)).toBe("k1")
    expect(judgeUpstream({ model: "m", provider: "openai" }, env)).toMatchObject({
      baseUrl: "https://api.openai.com/v1",
      provider: "openai",
    })
    expect(Redacted.value(judgeUpstream({ model: "m", provider: "openai" }, env)!.apiKey!)).toBe("k2")
    // An OpenAI key never goes to a loopback server, even one that says it speaks for OpenAI.
    expect(judgeUpstream({ model: "m", provider: "openai", inference_url: "http://127.0.0.1:9/v1" }, env)?.apiKey).toBe(
      null,
    )
    expect(judgeUpstream({ model: "m" }, env)).toBe(null)
  })
})

// Layer wiring compiles against the run's Interceptor.
export const judgeLayer = JudgeClient.layer({
  runId: "r",
  recordCalls: () => Effect.void,
  settings: { model: "m" },
  upstream: { baseUrl: "http://127.0.0.1:9/v1" },
}).pipe(Layer.provide(Interceptor.layer()))
