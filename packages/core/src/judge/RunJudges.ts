import { Context, Effect, Layer } from "effect"
import { GraderError } from "../grader/Grader.js"
import type { RolloutInterception } from "../interceptor/Interceptor.js"
import type { BackoffPolicy } from "../runner/Backoff.js"
import { ResultStore } from "../store/ResultStore.js"
import { JudgeClient, type JudgeClientService } from "./JudgeClient.js"
import { type JudgeSettings, judgeUpstream } from "./JudgeSettings.js"

export interface RunJudgesService {
  /** The client of one judge (`[eval.judge]`, or a grader's own): one per distinct settings, made on first use. */
  readonly clientOf: (grader: string, settings: JudgeSettings) => Effect.Effect<JudgeClientService, GraderError>
}

export interface RunJudgesOptions {
  readonly runId: string
  /** The run's interceptor: every judge call goes through it, recorded with `role = "judge"` and priced. */
  readonly interception: RolloutInterception
  /** Where the judges' keys are read (`api_key_env`, a provider's variable). */
  readonly env: Readonly<Record<string, string | undefined>>
  readonly backoff?: BackoffPolicy | undefined
}

/**
 * The judges a run's model graders ask. Their calls are stored in the run's `model_calls.jsonl` as each try ends,
 * like the policy's, under the rollout being graded (`JudgedRollout`).
 */
export class RunJudges extends Context.Tag("@proctor/core/RunJudges")<RunJudges, RunJudgesService>() {
  static readonly make = (
    options: RunJudgesOptions,
    recordCalls: Parameters<typeof JudgeClient.make>[0]["recordCalls"],
  ): RunJudgesService => {
    const clients = new Map<string, JudgeClientService>()
    // A grader asks with the same settings object every row: found by it first, without writing out its key.
    const bySettings = new WeakMap<JudgeSettings, JudgeClientService>()
    return {
      clientOf: (grader, settings) =>
        Effect.suspend(() => {
          const same = bySettings.get(settings)
          if (same !== undefined) return Effect.succeed(same)
          const key = JSON.stringify(settings)
          const known = clients.get(key)
          if (known !== undefined) {
            bySettings.set(settings, known)
            return Effect.succeed(known)
          }
          const upstream = judgeUpstream(settings, options.env)
          if (upstream === null) {
            return new GraderError({
              reason: "Unloadable",
              grader,
              message: "its judge names no endpoint: give the judge an inference_url or a provider",
            })
          }
          const client = JudgeClient.make({ ...options, settings, upstream, recordCalls })
          clients.set(key, client)
          bySettings.set(settings, client)
          return Effect.succeed(client)
        }),
    }
  }

  /** The run's judges, storing their calls in the run's `ResultStore`. */
  static readonly layer = (options: RunJudgesOptions): Layer.Layer<RunJudges, never, ResultStore> =>
    Layer.effect(
      RunJudges,
      Effect.map(ResultStore, (store) =>
        // A store that cannot write is fatal for the run, as for the policy's calls: nothing is silently lost.
        RunJudges.make(options, (calls) => Effect.orDie(store.appendModelCalls(calls))),
      ),
    )

  /** Where no interceptor runs: a model grader's rollout fails with the line saying why, before any judge call. */
  static readonly none: RunJudgesService = {
    clientOf: (grader) =>
      new GraderError({
        reason: "Unloadable",
        grader,
        message: "a model grader asks its judge through proctor's interceptor, which this run does not have",
      }),
  }
}
