import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { Effect } from "effect"
import { GraderError, type GraderVerdict } from "../../grader/Grader.js"
import { type PythonFunction, pythonFunction } from "../../grader/PythonFunction.js"
import { isRecord } from "../../internal/isRecord.js"
import type { ImportedCheckKind } from "../ImportedEval.js"
import { ImportProblem, shown } from "../ImportProblem.js"

/** One interpreter per distinct function of a config (a defaultTest assertion is every test's). */
export type PythonFunctions = (setup: {
  readonly file?: string
  readonly source?: string
  readonly function: string
}) => PythonFunction

export const pythonFunctionsOf = (grader: string): PythonFunctions => {
  const made = new Map<string, PythonFunction>()
  return (setup) => {
    const key = JSON.stringify(setup)
    let python = made.get(key)
    if (python === undefined) {
      python = pythonFunction({ grader, ...setup })
      made.set(key, python)
    }
    return python
  }
}

/** promptfoo's script around an inline assertion: one line is returned, several are the function's body. */
const inlineSource = (value: string): string => {
  const multiline = value.includes("\n")
  const indent = multiline ? (/^(?!\s*$)\s+/m.exec(value)?.[0] ?? "    ") : "    "
  const body = multiline
    ? value
        .split("\n")
        .map((line) => `${indent}${line}`)
        .join("\n")
    : `    return ${value}`
  return `import json\n\ndef main(output, context):\n${body}\n`
}

const notAResult = (grader: string, value: unknown) =>
  new GraderError({
    reason: "BadResult",
    grader,
    message: `returned ${JSON.stringify(value)?.slice(0, 200)}: a Python assertion returns a boolean, a number, or {pass, score, reason}`,
  })

/**
 * What promptfoo makes of a script's value: true/false (or "true"/"false") pass or fail with score 1 or 0; a number
 * is the score, passing above 0, or at the `threshold` when one is set; `{pass, score, reason}` (or its JSON) is
 * taken at its word, failed below the threshold; `not-` flips whether it passed, never the score.
 */
export const scriptVerdict = (
  grader: string,
  value: unknown,
  threshold: number | undefined,
  inverse: boolean,
): GraderVerdict | GraderError => {
  const lower = typeof value === "string" ? value.toLowerCase() : undefined
  const outright = value === true || lower === "true" ? true : value === false || lower === "false" ? false : null
  if (outright !== null) {
    const passed = outright !== inverse
    return { score: passed ? 1 : 0, passed }
  }
  let result = value
  if (typeof value === "string" && value.startsWith("{")) {
    try {
      result = JSON.parse(value)
    } catch {
      return notAResult(grader, value)
    }
  }
  if (isRecord(result)) {
    const pass = result.pass ?? result.pass_
    if (typeof pass !== "boolean" || typeof result.score !== "number" || typeof result.reason !== "string")
      return notAResult(grader, value)
    const reached = threshold === undefined || result.score >= threshold
    const passed = (pass && reached) !== inverse
    return { score: result.score, passed, ...(result.reason === "" ? {} : { reason: result.reason }) }
  }
  const score = typeof value === "number" ? value : Number.parseFloat(String(value))
  if (Number.isNaN(score)) return notAResult(grader, value)
  const passed = (threshold === undefined ? score > 0 : score >= threshold) !== inverse
  return { score, passed }
}

/**
 * A promptfoo `python` assertion: its value is an expression or a function body over `output` and `context` (as
 * promptfoo wraps it), or `file://path.py` (its `get_assert(output, context)`, or `file://path.py:name`), relative to
 * the config. `context` holds the prompt, the test's vars and the test. It runs in this machine's `python3`, one
 * interpreter per function; a script that raises is a grader error of the rollout, not promptfoo's silent fail.
 */
export const pythonCheck = (
  value: unknown,
  vars: Readonly<Record<string, unknown>>,
  options: {
    readonly path: string
    readonly dir: string
    readonly grader: string
    readonly threshold: number | undefined
    readonly inverse: boolean
    readonly functions: PythonFunctions
  },
): ImportedCheckKind => {
  const { path, dir, grader, threshold, inverse, functions } = options
  if (typeof value !== "string" || value.trim() === "")
    throw new ImportProblem(`${path}.value`, `"python" needs Python code or file://path.py, not ${shown(value)}`)
  let python: PythonFunction
  if (value.startsWith("file://")) {
    const [file, name] = value.slice("file://".length).split(/:(?=[A-Za-z_]\w*$)/)
    const absolute = resolve(dir, file!)
    if (!existsSync(absolute)) throw new ImportProblem(`${path}.value`, `no file ${absolute}`)
    python = functions({ file: absolute, function: name ?? "get_assert" })
  } else {
    python = functions({ source: inlineSource(value), function: "main" })
  }
  return {
    run: (answer, prompt) =>
      Effect.flatMap(python.call([answer, { prompt, vars, test: { vars } }]), (result) => {
        const verdict = scriptVerdict(grader, result, threshold, inverse)
        return verdict instanceof GraderError ? Effect.fail(verdict) : Effect.succeed(verdict)
      }),
  }
}
