import { ParseResult, Schema, SchemaAST } from "effect"
import { parseInlineTable } from "../config/inlineTable.js"
import { type KeyFinding, reviewTableKeys } from "../internal/reviewTableKeys.js"
import { reviewJudgeKeys } from "../judge/JudgeSettings.js"
import { MODEL_GRADER_TYPES, ModelGraderSpec } from "../judge/ModelGraderSpec.js"

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })
const described = <S extends Schema.Schema.All>(schema: S, description: string) =>
  opt(schema).annotations({ description })

const Name = described(
  Schema.NonEmptyTrimmedString,
  "The metric's name in results and summaries (default: the type). The grader named `score` is the run's score.",
)
const Weight = described(
  Schema.Number.pipe(Schema.positive({ message: () => "expected a positive number" })),
  "Its weight in the run's score when no grader is named `score` (default 1).",
)
/** Where a reference-based grader finds what the answer should be. */
const referenceFields = {
  reference: described(
    Schema.String,
    'The expected answer, a template over the row (`"{{ item.answer }}"`); default: the row\'s `field`.',
  ),
  field: described(Schema.NonEmptyTrimmedString, "The row's column holding the expected answer (default `answer`)."),
}
const IgnoreCase = described(Schema.Boolean, "Compare without regard to case (default false).")

/** A grader's type and the keys every grader has. */
const graderStruct = <const T extends string, F extends Schema.Struct.Fields>(
  type: T,
  description: string,
  fields: F,
) =>
  Schema.Struct({ type: Schema.Literal(type), name: Name, weight: Weight, ...fields }).annotations({
    identifier: type,
    description,
  })

export const EqualsGrader = graderStruct("equals", "Passes when the answer equals the reference (trimmed).", {
  ...referenceFields,
  ignore_case: IgnoreCase,
  trim: described(Schema.Boolean, "Trim whitespace from both before comparing (default true)."),
})
export const IncludesGrader = graderStruct("includes", "Passes when the answer contains the reference.", {
  ...referenceFields,
  ignore_case: IgnoreCase,
})
export const RegexGrader = graderStruct("regex", "Passes when the answer matches a regular expression.", {
  pattern: Schema.NonEmptyString.annotations({
    description: 'A JavaScript regular expression, itself a template over the row (`"^{{ item.answer }}$"`).',
  }),
  ignore_case: IgnoreCase,
})
export const IsJsonGrader = graderStruct("is_json", "Passes when the answer is valid JSON.", {})
export const JsonSchemaGrader = graderStruct(
  "json_schema",
  "Passes when the answer is JSON that a JSON Schema (draft-07 or 2019-09, via ajv) accepts.",
  {
    schema: described(Schema.Record({ key: Schema.String, value: Schema.Unknown }), "The schema, inline."),
    schema_file: described(
      Schema.NonEmptyTrimmedString,
      "Or a JSON file holding it (relative to the working directory).",
    ),
  },
)
export const NumericGrader = graderStruct(
  "numeric",
  "Passes when the last number in the answer is within `tolerance` of the reference's number.",
  {
    ...referenceFields,
    tolerance: described(
      Schema.Number.pipe(Schema.nonNegative({ message: () => "expected a number ≥ 0" })),
      "The largest difference that still passes (default 0).",
    ),
    relative: described(Schema.Boolean, "Take `tolerance` as a fraction of the reference (default false)."),
  },
)
export const ChoiceGrader = graderStruct(
  "choice",
  'Multiple choice: passes when the letter the answer picks ("ANSWER: B", "(B)", "B") is the reference\'s letter.',
  referenceFields,
)
export const SimilarityMetric = Schema.Literal("fuzzy", "bleu", "rouge_l")
export const SimilarityGrader = graderStruct(
  "similarity",
  "Scores the answer's likeness to the reference: `fuzzy` (1 − Levenshtein distance / longer length), `bleu` (sentence BLEU-4, smoothed), `rouge_l` (ROUGE-L F, js-rouge).",
  {
    ...referenceFields,
    metric: SimilarityMetric.annotations({ description: "`fuzzy`, `bleu` or `rouge_l`." }),
    threshold: described(
      Schema.Number.pipe(Schema.between(0, 1, { message: () => "expected a number from 0 to 1" })),
      "The score at or above which the answer passes (default 0.5).",
    ),
  },
)
export const ToolCallGrader = graderStruct(
  "tool_call",
  "Passes when the model called the tool `tool` with every argument `arguments` lists (dataset runs with `tools`). Each expected value is a template over the row, compared with the call's argument as text (numbers, booleans and objects as JSON).",
  {
    tool: Schema.NonEmptyString.annotations({ description: 'The tool\'s name, a template over the row (`"add"`).' }),
    arguments: described(
      Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean) }),
      'Arguments the call must have, by name (`{ a = "{{ item.a }}" }`); others it has are not checked.',
    ),
  },
)
export const CodeGrader = graderStruct(
  "code",
  "Your function grades: `(input: { answer, item, trajectory }) => number | boolean | { score, passed?, reason? }` (or a promise of one), exported from a JS or TS file (TS needs tsx installed, as evaluate() scripts do).",
  {
    file: Schema.NonEmptyTrimmedString.annotations({
      description: "The module's path (relative to the working directory).",
    }),
    export: described(Schema.NonEmptyTrimmedString, "The export to call (default `default`)."),
  },
)

export const PythonGrader = graderStruct(
  "python",
  'Your Python function grades, in a `python3` of the run\'s own: `def grade(sample, item)` as OpenAI\'s Evals API calls its python graders (`sample["output_text"]` is the answer, `item` the row), or, with `call = "payload"`, as synth-ai calls its judges: `judge(payload, **kwargs)` with `payload` holding `seed`, `prompt`, `completion` (the answer), `item` and `trace` (the trajectory). It returns a score from 0 to 1, a boolean, or a dict `{ score, passed?, reason? }`. Give one of `file`, `module` or `source`.',
  {
    file: described(Schema.NonEmptyTrimmedString, "The module's path (relative to the working directory)."),
    module: described(Schema.NonEmptyTrimmedString, "Or a module to import by name (found on `PYTHONPATH`)."),
    source: described(Schema.NonEmptyString, "Or the code itself."),
    function: described(Schema.NonEmptyTrimmedString, "The function to call (default `grade`)."),
    call: described(
      Schema.Literal("sample_item", "payload"),
      "`sample_item`: `function(sample, item)`, OpenAI's form (default); `payload`: `function(payload, **kwargs)`, synth-ai's.",
    ),
    kwargs: described(
      Schema.Record({ key: Schema.String, value: Schema.Unknown }),
      "Keyword arguments for every call (a synth-ai judge table's own keys).",
    ),
    pass_threshold: described(Schema.Number, "A score at or above this passes (default 1)."),
    python: described(Schema.NonEmptyTrimmedString, "The interpreter (default `python3`)."),
  },
)

/** Every rule grader, told apart by `type`: each judges an answer by itself, without a model. */
export const RuleGraderSpec = Schema.Union(
  EqualsGrader,
  IncludesGrader,
  RegexGrader,
  IsJsonGrader,
  JsonSchemaGrader,
  NumericGrader,
  ChoiceGrader,
  SimilarityGrader,
  ToolCallGrader,
  CodeGrader,
  PythonGrader,
)

/** Every grader, told apart by `type`: the rule graders and the model graders (which ask a judge model). */
export const GraderSpec = Schema.Union(...RuleGraderSpec.members, ...ModelGraderSpec.members)
export type GraderSpec = typeof GraderSpec.Type

export const GRADER_TYPES: ReadonlyArray<GraderSpec["type"]> = [
  ...RuleGraderSpec.members.map((member) => member.fields.type.literals[0]),
  ...MODEL_GRADER_TYPES,
]

const typeOf = (value: unknown): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>).type : undefined

const GRADER_WORD = /^[a-z_]+$/

/**
 * A grader written on one line, as `--grader` takes it (TOML files may too): a bare type (`equals`) or an inline TOML
 * table (`{ type = "regex", pattern = "^4$" }`), the same table `[[eval.graders]]` holds.
 */
const graderOfLine = (line: string): unknown => {
  const text = line.trim()
  if (GRADER_WORD.test(text)) return { type: text }
  if (!text.startsWith("{"))
    throw new Error('expected a grader type (equals) or an inline TOML table ({ type = "includes" })')
  return parseInlineTable(text)
}

const GraderLines = Schema.transformOrFail(Schema.Array(Schema.Unknown), Schema.Array(Schema.Unknown), {
  strict: true,
  decode: (items, _, ast) => {
    const tables: Array<unknown> = []
    for (const [index, item] of items.entries()) {
      if (typeof item !== "string") {
        tables.push(item)
        continue
      }
      try {
        tables.push(graderOfLine(item))
      } catch (error) {
        return ParseResult.fail(
          new ParseResult.Pointer(index, items, new ParseResult.Type(ast, item, (error as Error).message)),
        )
      }
    }
    return ParseResult.succeed(tables)
  },
  encode: ParseResult.succeed,
})

/**
 * A list of grader specs. A `type` proctor does not know fails on its own, in one line naming the type and the
 * types there are (a union's error would list every member's complaints instead); names must be unique.
 */
export const GraderSpecs = GraderLines.pipe(
  Schema.filter((specs) => {
    for (const [index, spec] of specs.entries()) {
      const type = typeOf(spec)
      if (typeof type !== "string" || !(GRADER_TYPES as ReadonlyArray<string>).includes(type)) {
        return {
          path: [index, "type"],
          message: `${typeof type === "string" ? `unknown grader type ${JSON.stringify(type)}` : "expected a grader type"}; one of ${GRADER_TYPES.join(", ")}`,
        }
      }
    }
    return true
  }),
).pipe(
  Schema.compose(Schema.Array(GraderSpec)),
  Schema.filter((specs) => {
    const seen = new Set<string>()
    for (const [index, spec] of specs.entries()) {
      const name = spec.name ?? spec.type
      if (seen.has(name)) {
        return { path: [index, "name"], message: `two graders are named ${JSON.stringify(name)}: give each a name` }
      }
      seen.add(name)
    }
    return true
  }),
)

/** A grader's metric name: its `name`, else its type. */
export const graderName = (spec: GraderSpec): string => spec.name ?? spec.type

/**
 * The keys each grader type reads (as written: keys with defaults too), by type. Read from the schemas at the first
 * review, not when this module loads: every command loads it, few give graders.
 */
let graderKeys: ReadonlyMap<string, ReadonlyArray<string>> | undefined
const graderKeysOf = (type: string): ReadonlyArray<string> | undefined => {
  graderKeys ??= new Map(
    GraderSpec.members.map((member) => {
      const keys = SchemaAST.getPropertySignatures(SchemaAST.encodedAST(member.ast))
      const literal = keys.find((key) => key.name === "type")?.type
      return [
        literal !== undefined && SchemaAST.isLiteral(literal) ? String(literal.literal) : "",
        keys.map((key) => String(key.name)),
      ]
    }),
  )
  return graderKeys.get(type)
}

/**
 * The keys grader specs set that their type does not read, and those of a model grader's own `judge`, each named with
 * the key most likely meant (see reviewTableKeys). A spec that does not parse, or of a type proctor does not know, is
 * left to decoding, which names its problem.
 */
export const reviewGraderKeys = (
  graders: unknown,
  path: ReadonlyArray<PropertyKey>,
  render: (path: ReadonlyArray<PropertyKey>) => string,
): ReadonlyArray<KeyFinding> => {
  if (!Array.isArray(graders)) return []
  return graders.flatMap((item: unknown, index) => {
    let spec: unknown
    try {
      spec = typeof item === "string" ? graderOfLine(item) : item
    } catch {
      return []
    }
    const type = typeOf(spec)
    const known = typeof type === "string" ? graderKeysOf(type) : undefined
    if (known === undefined) return []
    const at = [...path, index]
    const judge = known.includes("judge") ? (spec as Record<string, unknown>).judge : undefined
    return [...reviewTableKeys(spec, known, at, render), ...reviewJudgeKeys(judge, [...at, "judge"], render)]
  })
}
