import { Context, Effect, Layer, Option } from "effect"
import type { InterceptorUpstream, RolloutInterception } from "../interceptor/Interceptor.js"
import { Interceptor } from "../interceptor/Interceptor.js"
import { postModel } from "../internal/modelPost.js"
import { parseRetryAfter } from "../internal/retryAfter.js"
import type { ModelCall } from "../result/ModelCall.js"
import { type BackoffPolicy, defaultBackoff, retryDelay } from "../runner/Backoff.js"
import { JudgedRollout } from "./JudgedRollout.js"
import { JudgeError, type JudgeErrorReason } from "./JudgeError.js"
import { type JudgeSettings, judgeDefaults } from "./JudgeSettings.js"

export interface JudgeMessage {
  readonly role: "system" | "user" | "assistant"
  readonly content: string
}

/** What a grader makes of the judge's answer: its value, or why the answer is unusable (then it is asked again). */
export type JudgeReading<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly reason: "unparseable" | "out_of_range"; readonly message: string }

export interface JudgeAsk<A> {
  /** The grader asking: recorded on each of its calls. */
  readonly grader: string
  readonly messages: ReadonlyArray<JudgeMessage>
  readonly read: (answer: string) => JudgeReading<A>
  /** Which of `samples` answers this is (0-based): sent as the request's `seed`, so samples differ and replay alike. */
  readonly sample?: number | undefined
}

/** What a judge's calls for one answer spent, failed tries included; null when no call reported it. */
export interface JudgeSpend {
  readonly calls: number
  readonly tokens: number | null
  readonly cost_usd: number | null
}

export interface JudgeAnswer<A> {
  readonly value: A
  /** The answer as the judge wrote it. */
  readonly text: string
  /** Tries it took: 1 when the first answer was usable. */
  readonly tries: number
  readonly spend: JudgeSpend
}

export interface JudgeClientService {
  readonly settings: JudgeSettings
  /** Asks the judge once, retrying an unusable answer or a failed call with backoff up to `settings.retries` times. */
  readonly ask: <A>(ask: JudgeAsk<A>) => Effect.Effect<JudgeAnswer<A>, JudgeError>
}

export interface JudgeClientOptions {
  /** The run's interceptor: the judge's calls are opened on it like a rollout's, on the judge's upstream. */
  readonly interception: RolloutInterception
  readonly runId: string
  readonly settings: JudgeSettings
  readonly upstream: InterceptorUpstream
  /**
   * Stores each try's calls (`model_calls.jsonl`, a table) as soon as the try ends, a failed one's included: they
   * were made and may have been paid for. The run's store's `appendModelCalls`.
   */
  readonly recordCalls: (calls: ReadonlyArray<ModelCall>) => Effect.Effect<void>
  readonly backoff?: BackoffPolicy | undefined
}

/** The interceptor forwards the judge's own key upstream; this stands in for it on the loopback hop. */
const STAND_IN_KEY = "proctor-judge"
const MAX_ANSWER_CHARS = 500

interface Posted {
  readonly status: number
  readonly text: string
  readonly retryAfterMs: number | undefined
}

const post = (url: string, body: unknown, grader: string) =>
  Effect.tryPromise({
    try: async (signal): Promise<Posted> => {
      const headers = { "content-type": "application/json", authorization: `Bearer ${STAND_IN_KEY}` }
      const answer = await postModel(url, headers, JSON.stringify(body), signal)
      const retryAfter = answer.headers["retry-after"]
      return {
        status: answer.status,
        text: answer.text,
        retryAfterMs: parseRetryAfter(typeof retryAfter === "string" ? retryAfter : undefined, Date.now()),
      }
    },
    catch: (cause) =>
      new JudgeError({ reason: "call_failed", grader, message: `the judge is unreachable: ${String(cause)}`, cause }),
  })

/** The text of a chat completion's first choice, or null when the body is no chat completion. */
const contentOf = (body: string): string | null => {
  try {
    const parsed = JSON.parse(body) as { choices?: Array<{ message?: { content?: unknown } }> }
    const content = parsed.choices?.[0]?.message?.content
    return typeof content === "string" ? content : null
  } catch {
    return null
  }
}

const sum = (values: ReadonlyArray<number | null>): number | null => {
  const known = values.filter((value): value is number => value !== null && Number.isFinite(value))
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0)
}

const spendOf = (calls: ReadonlyArray<ModelCall>): JudgeSpend => ({
  calls: calls.length,
  tokens: sum(calls.map((call) => call.usage?.total_tokens ?? null)),
  cost_usd: sum(calls.map((call) => call.cost_usd)),
})

const cut = (text: string) => (text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}…` : text)

/**
 * The judge model, as model graders ask it: each question is a chat completion on the judge's own upstream, made
 * through the run's interceptor under a correlation id of its own, so it is recorded in `model_calls.jsonl` with
 * `role = "judge"`, traced and priced like the policy's calls and counted apart from them. The rollout being graded
 * (`JudgedRollout`, when provided) names the calls' seed and attempt.
 */
export class JudgeClient extends Context.Tag("@proctor/core/JudgeClient")<JudgeClient, JudgeClientService>() {
  static readonly make = (options: JudgeClientOptions): JudgeClientService => {
    const { interception, runId, settings, upstream, recordCalls } = options
    const backoff = options.backoff ?? defaultBackoff
    const retries = settings.retries ?? judgeDefaults.retries

    /** One call: its answer (or why none) and the calls the interceptor recorded for it. */
    const callOnce = <A>(ask: JudgeAsk<A>) =>
      Effect.gen(function* () {
        const rollout = yield* Effect.serviceOption(JudgedRollout)
        const key = Option.getOrElse(rollout, () => ({ rolloutId: `${runId}-judge`, seed: -1, attempt: 0 }))
        const opened = yield* interception
          .open({
            runId,
            rolloutId: key.rolloutId,
            seed: key.seed,
            attempt: key.attempt,
            upstream,
            judge: { grader: ask.grader },
          })
          .pipe(
            Effect.mapError(
              (cause) => new JudgeError({ reason: "call_failed", grader: ask.grader, message: cause.message, cause }),
            ),
          )
        const body = {
          model: settings.model,
          messages: ask.messages,
          temperature: settings.temperature ?? judgeDefaults.temperature,
          max_tokens: settings.max_tokens ?? judgeDefaults.max_tokens,
          ...(ask.sample === undefined ? {} : { seed: ask.sample }),
        }
        const posted = yield* post(`${opened.inferenceUrl}/chat/completions`, body, ask.grader).pipe(
          Effect.either,
          Effect.onInterrupt(() => interception.close(opened.cid)),
        )
        const calls = yield* interception.close(opened.cid)
        yield* recordCalls(calls)
        return { posted, calls }
      })

    /** The judge's text and what the grader read in it, or why there is nothing to read. */
    const judged = <A>(
      ask: JudgeAsk<A>,
      posted: Posted,
    ): { readonly content: string; readonly reading: JudgeReading<A> } | JudgeError => {
      const fail = (reason: JudgeErrorReason, message: string) =>
        new JudgeError({ reason, grader: ask.grader, message, answer: cut(posted.text) })
      if (posted.status === 429 || posted.status >= 500) {
        return fail("call_failed", `the judge answered HTTP ${posted.status}`)
      }
      if (posted.status >= 400) return fail("refused", `the judge refused the call: HTTP ${posted.status}`)
      const content = contentOf(posted.text)
      if (content === null) return fail("unparseable", "the judge's answer is not a chat completion with text")
      return { content, reading: ask.read(content) }
    }

    // Untraced: a judge is asked once a row or more, and a span a call (with the grader's around it) cost more than
    // the call's own work; every call is traced where it counts, as a model call the interceptor records.
    const ask = Effect.fnUntraced(function* <A>(question: JudgeAsk<A>) {
      const spent: Array<ModelCall> = []
      for (let attempt = 1; ; attempt++) {
        const { posted, calls } = yield* callOnce(question)
        spent.push(...calls)
        let failure: JudgeError
        let retryAfterMs: number | undefined
        if (posted._tag === "Left") failure = posted.left
        else {
          retryAfterMs = posted.right.retryAfterMs
          const read = judged(question, posted.right)
          if (read instanceof JudgeError) failure = read
          else if (read.reading.ok) {
            const answer: JudgeAnswer<A> = {
              value: read.reading.value,
              text: read.content,
              tries: attempt,
              spend: spendOf(spent),
            }
            return answer
          } else {
            failure = new JudgeError({
              reason: read.reading.reason,
              grader: question.grader,
              message: read.reading.message,
              answer: cut(read.content),
            })
          }
        }
        if (!failure.retryable || attempt > retries) {
          return yield* new JudgeError({
            reason: failure.reason,
            grader: failure.grader,
            message: `${failure.message} (after ${attempt} ${attempt === 1 ? "try" : "tries"})`,
            ...(failure.answer === undefined ? {} : { answer: failure.answer }),
            ...(failure.cause === undefined ? {} : { cause: failure.cause }),
          })
        }
        yield* Effect.sleep(yield* retryDelay(backoff, attempt, retryAfterMs))
      }
    })

    return { settings, ask }
  }

  /** The judge on the run's `Interceptor`. */
  static readonly layer = (
    options: Omit<JudgeClientOptions, "interception">,
  ): Layer.Layer<JudgeClient, never, Interceptor> =>
    Layer.effect(
      JudgeClient,
      Effect.map(Interceptor, (interception) => JudgeClient.make({ ...options, interception })),
    )
}
