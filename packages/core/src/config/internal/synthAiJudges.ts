import { Either } from "effect"

/** The keys that make a table one of synth-ai's judges (a Python callable) rather than proctor's `[eval.judge]`. */
const CALLABLE_KEYS = ["module", "path", "callable", "function"] as const
const OWN_KEYS = new Set<string>([...CALLABLE_KEYS, "name"])

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)

const isCallableJudge = (value: unknown): value is Record<string, unknown> =>
  isTable(value) && CALLABLE_KEYS.some((key) => key in value)

export interface SynthAiJudges {
  /** The section without synth-ai's judge keys, with each judge appended to `graders` as a `python` grader. */
  readonly section: Readonly<Record<string, unknown>>
  /** One line saying where synth-ai's judges went, when there were any. */
  readonly note: string | null
}

/**
 * synth-ai's judges, read as proctor's `python` graders. synth-ai's `[eval]` names Python callables that score each
 * rollout — `[eval.judge]` with `module` or `path` (and `callable`, default `judge`), or a table of them by name
 * (`[eval.judge.NAME]`), or a `[[eval.judges]]` list — called as `judge(payload, **kwargs)` with the table's other
 * keys as keyword arguments. A `python` grader with `call = "payload"` calls them the same way; each judge's score is
 * then its named grade and goes into `verifier_score`. proctor's own `[eval.judge]` (a judge model) has none of these
 * keys, so the two never mix.
 */
export const synthAiJudges = (
  section: Readonly<Record<string, unknown>>,
  prefix: string,
): Either.Either<SynthAiJudges, string> => {
  const found: Array<{
    readonly where: string
    readonly hint: string | undefined
    readonly table: Record<string, unknown>
  }> = []
  const judge = section.judge
  const nested = isTable(judge) ? Object.entries(judge).filter(([, value]) => isCallableJudge(value)) : []
  const judgeIsSynthAi = isCallableJudge(judge) || nested.length > 0
  if (isCallableJudge(judge)) found.push({ where: `${prefix}judge`, hint: undefined, table: judge })
  else
    for (const [name, table] of nested)
      found.push({ where: `${prefix}judge.${name}`, hint: name, table: table as Record<string, unknown> })
  if (section.judges !== undefined && !Array.isArray(section.judges)) {
    return Either.left(`${prefix}judges: expected a list of tables (synth-ai's judges: module or path each)`)
  }
  const list: ReadonlyArray<unknown> = section.judges ?? []
  for (const [index, entry] of list.entries()) {
    if (!isTable(entry))
      return Either.left(`${prefix}judges[${index}]: expected a table (synth-ai's judge: module or path)`)
    found.push({ where: `${prefix}judges[${index}]`, hint: undefined, table: entry })
  }
  if (found.length === 0) return Either.right({ section, note: null })

  const graders: Array<Record<string, unknown>> = []
  for (const { where, hint, table } of found) {
    const module = table.module
    const path = table.path
    if (module !== undefined && path !== undefined)
      return Either.left(`${where}: a judge cannot set both module and path`)
    if (module === undefined && path === undefined) return Either.left(`${where}: a judge needs module or path`)
    const name = typeof table.name === "string" ? table.name : (hint ?? `judge${graders.length + 1}`)
    const kwargs = Object.fromEntries(Object.entries(table).filter(([key]) => !OWN_KEYS.has(key)))
    graders.push({
      type: "python",
      name,
      ...(path === undefined ? { module } : { file: path }),
      function: table.callable ?? table.function ?? "judge",
      call: "payload",
      ...(Object.keys(kwargs).length === 0 ? {} : { kwargs }),
    })
  }
  const { judge: _judge, judges: _judges, ...rest } = section
  const own = Array.isArray(section.graders) ? section.graders : []
  return Either.right({
    section: { ...rest, ...(judgeIsSynthAi || judge === undefined ? {} : { judge }), graders: [...own, ...graders] },
    note: `synth-ai's judges ${graders.map((grader) => grader.name).join(", ")} run as python graders (call = "payload"): each score is its grade, and together they are verifier_score`,
  })
}
