import { resolve } from "node:path"
import { Effect } from "effect"
import { GraderError, type GraderInput } from "./Grader.js"
import { graderName, type PythonGrader } from "./GraderSpec.js"
import { PythonWorker } from "./internal/PythonWorker.js"
import { type LoadedCodeGrader, verdictOf } from "./loadCodeGrader.js"

/** An idle interpreter ends after this long; the next rollout's grade starts another. */
const IDLE_MS = 10_000

type PythonSpec = typeof PythonGrader.Type

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0]!

/** What the function is given: OpenAI's `(sample, item)`, or synth-ai's judge payload. */
const argumentsOf = (spec: PythonSpec, input: GraderInput): ReadonlyArray<unknown> =>
  spec.call === "payload"
    ? [
        {
          seed: input.item.seed ?? null,
          prompt: input.prompt ?? null,
          completion: input.answer,
          item: input.item,
          trace: input.trajectory ?? [],
        },
      ]
    : [{ output_text: input.answer }, input.item]

/**
 * A `python` grader, loaded: its interpreter started and its function found before the run starts (a file that does
 * not load is the config's problem, said before anything runs), then called once per rollout.
 */
export const loadPythonGrader = (spec: PythonSpec): Effect.Effect<LoadedCodeGrader, GraderError> => {
  const name = graderName(spec)
  const sources = [spec.file, spec.module, spec.source].filter((given) => given !== undefined)
  if (sources.length !== 1) {
    return Effect.fail(
      new GraderError({
        reason: "Unloadable",
        grader: name,
        message: `give one of file, module or source (${sources.length === 0 ? "none" : "more than one"} given)`,
      }),
    )
  }
  const where = spec.file ?? spec.module ?? "source"
  const worker = new PythonWorker({
    python: spec.python ?? "python3",
    setup: {
      ...(spec.file === undefined ? {} : { file: resolve(spec.file) }),
      ...(spec.module === undefined ? {} : { module: spec.module }),
      ...(spec.source === undefined ? {} : { source: spec.source }),
      function: spec.function ?? "grade",
      kwargs: spec.kwargs ?? {},
    },
    idleMs: IDLE_MS,
  })
  const threshold = spec.pass_threshold ?? 1
  return Effect.tryPromise({
    try: () => worker.start(),
    catch: (error) =>
      new GraderError({ reason: "Unloadable", grader: name, message: `${where}: ${firstLine(error)}`, cause: error }),
  }).pipe(
    Effect.as((input: GraderInput) =>
      Effect.tryPromise({
        try: () => worker.call(argumentsOf(spec, input)),
        catch: (error) =>
          new GraderError({ reason: "Threw", grader: name, message: `raised ${firstLine(error)}`, cause: error }),
      }).pipe(
        Effect.flatMap((value) => {
          const judged = verdictOf(name, value)
          if (judged instanceof GraderError) return Effect.fail(judged)
          // A bare number passes at the grader's threshold; a verdict that says whether it passed is taken at its word.
          const saysPassed = typeof value === "object" && value !== null && "passed" in value
          return Effect.succeed(
            typeof value === "boolean" || saysPassed ? judged : { ...judged, passed: judged.score >= threshold },
          )
        }),
      ),
    ),
  )
}
