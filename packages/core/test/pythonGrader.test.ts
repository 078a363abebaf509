import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import type { GraderInput } from "../src/grader/Grader.js"
import { makeGraderSet } from "../src/grader/GraderSet.js"
import { GraderSpecs } from "../src/grader/GraderSpec.js"
import { RunJudges } from "../src/judge/RunJudges.js"

const tmp = mkdtempSync(join(tmpdir(), "proctor-python-grader-"))
const file = (name: string, source: string) => {
  const path = join(tmp, name)
  writeFileSync(path, source)
  return path
}

const graderSet = (spec: Record<string, unknown>) =>
  makeGraderSet(Either.getOrThrow(Schema.decodeUnknownEither(GraderSpecs)([spec])))

const grade = (spec: Record<string, unknown>, inputs: ReadonlyArray<GraderInput>) =>
  Effect.flatMap(graderSet(spec), (set) =>
    Effect.forEach(inputs, (input) => set.grade(input).pipe(Effect.provideService(RunJudges, RunJudges.none)), {
      concurrency: "unbounded",
    }),
  )

const EXACT = file(
  "exact.py",
  [
    "def grade(sample, item):",
    '    print("user output on stdout must not break the protocol")',
    '    return 1.0 if sample["output_text"].strip() == str(item["answer"]) else 0.0',
  ].join("\n"),
)

describe("python graders (OpenAI's python grader, synth-ai's judges)", () => {
  it.effect("grade(sample, item) as OpenAI's Evals API calls it, 200 rollouts at once through one interpreter", () =>
    Effect.gen(function* () {
      const inputs = Array.from({ length: 200 }, (_, i) => ({
        answer: i % 4 === 0 ? "wrong" : ` ${i * 2}\n`,
        item: { answer: i * 2 },
      }))
      const outcomes = yield* grade({ type: "python", file: EXACT }, inputs)
      expect(outcomes.map((outcome) => outcome.score)).toEqual(inputs.map((_, i) => (i % 4 === 0 ? 0 : 1)))
      expect(outcomes[1]!.grades.python).toEqual({ score: 1, passed: true })
    }),
  )

  it.effect("judge(payload, **kwargs) as synth-ai calls its judges; a threshold and a verdict dict", () =>
    Effect.gen(function* () {
      const judges = file(
        "judges.py",
        [
          "def length_judge(payload, target=10):",
          '    return min(1.0, len(payload["completion"]) / target)',
          "def verdict(payload):",
          '    ok = payload["seed"] == 7 and payload["prompt"] == "Say hi" and payload["trace"] == [{"kind": "model"}]',
          '    return {"score": 0.5, "passed": ok, "reason": "seed, prompt and trace seen" if ok else repr(payload)}',
        ].join("\n"),
      )
      const [short, long] = yield* grade(
        {
          type: "python",
          file: judges,
          function: "length_judge",
          call: "payload",
          kwargs: { target: 4 },
          pass_threshold: 0.5,
        },
        [
          { answer: "a", item: {} },
          { answer: "abcdef", item: {} },
        ],
      )
      expect(short!.grades.python).toEqual({ score: 0.25, passed: false })
      expect(long!.grades.python).toEqual({ score: 1, passed: true })
      const [seen] = yield* grade({ type: "python", file: judges, function: "verdict", call: "payload" }, [
        { answer: "hi", item: { seed: 7 }, prompt: "Say hi", trajectory: [{ kind: "model" }] },
      ])
      expect(seen!.grades.python).toEqual({ score: 0.5, passed: true, reason: "seed, prompt and trace seen" })
    }),
  )

  it.effect("inline source and a module by name", () =>
    Effect.gen(function* () {
      const [inline] = yield* grade(
        { type: "python", source: "def grade(sample, item):\n    return sample['output_text'] == 'yes'" },
        [{ answer: "yes", item: {} }],
      )
      expect(inline!.grades.python).toEqual({ score: 1, passed: true })
      // operator.truth(payload): a module by name is imported and its function called.
      const [fromModule] = yield* grade({ type: "python", module: "operator", function: "truth", call: "payload" }, [
        { answer: "x", item: {} },
      ])
      expect(fromModule!.grades.python).toEqual({ score: 1, passed: true })
    }),
  )

  it.effect("a function that raises, or answers out of range, is that rollout's grader error, saying why", () =>
    Effect.gen(function* () {
      const raising = file("raising.py", "def grade(sample, item):\n    return 1 / 0\n")
      const failed = yield* Effect.flip(grade({ type: "python", file: raising }, [{ answer: "a", item: {} }]))
      expect(failed).toMatchObject({ _tag: "GraderError", reason: "Threw", grader: "python" })
      expect(failed.message).toBe("raised ZeroDivisionError: division by zero (line 2)")
      const outOfRange = yield* Effect.flip(
        grade({ type: "python", source: "def grade(sample, item):\n    return 7" }, [{ answer: "a", item: {} }]),
      )
      expect(outOfRange).toMatchObject({ reason: "BadResult" })
      expect(outOfRange.message).toContain("expected a score from 0 to 1")
    }),
  )

  it.effect("a file that does not load, or a function it lacks, is refused before anything runs", () =>
    Effect.gen(function* () {
      const missing = yield* Effect.flip(graderSet({ type: "python", file: join(tmp, "nowhere.py") }))
      expect(missing).toMatchObject({ reason: "Unloadable" })
      expect(missing.message).toMatch(/nowhere\.py: FileNotFoundError: /)
      const noFunction = yield* Effect.flip(graderSet({ type: "python", file: EXACT, function: "judge" }))
      expect(noFunction.message).toBe(`${EXACT}: LookupError: defines no function 'judge'`)
      const broken = file("broken.py", "def grade(sample, item)\n    return 1\n")
      expect((yield* Effect.flip(graderSet({ type: "python", file: broken }))).message).toMatch(/SyntaxError/)
      const twoSources = yield* Effect.flip(graderSet({ type: "python", file: EXACT, source: "x = 1" }))
      expect(twoSources.message).toBe("give one of file, module or source (more than one given)")
      const noPython = yield* Effect.flip(graderSet({ type: "python", file: EXACT, python: "no-such-python" }))
      expect(noPython.message).toMatch(/could not start no-such-python: spawn no-such-python ENOENT/)
    }),
  )
})
