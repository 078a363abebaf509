import { Effect } from "effect"
import { GraderError, type GraderInput } from "./Grader.js"
import { graderName, type PythonGrader } from "./GraderSpec.js"
import { type LoadedCodeGrader, verdictOf } from "./loadCodeGrader.js"
import { pythonFunction } from "./PythonFunction.js"

type PythonSpec = typeof PythonGrader.Type

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
  const python = pythonFunction({
    grader: name,
    python: spec.python,
    file: spec.file,
    module: spec.module,
    source: spec.source,
    function: spec.function ?? "grade",
    kwargs: spec.kwargs,
  })
  const threshold = spec.pass_threshold ?? 1
  return python.load.pipe(
    Effect.as((input: GraderInput) =>
      python.call(argumentsOf(spec, input)).pipe(
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
