import { nearestName } from "./nearestName.js"

export interface KeyFinding {
  /**
   * `unknown`: a key proctor does not read although the user meant something by it (a typo, a key in the
   * wrong table); a warning, an error under `--strict`. `unused`: synth-ai's key that proctor has no use for.
   */
  readonly severity: "unknown" | "unused"
  readonly message: string
  /** The path of the key it most likely meant, in the value reviewed: when that key is missing, this is why. */
  readonly meant?: ReadonlyArray<PropertyKey>
}

/** A table of a document: an object, not an array or a TOML date. */
export const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)

/**
 * The keys of a table read by a schema of its own (a grader spec, a judge) that the schema does not read, each named
 * with the key it most likely meant, as `render` writes key paths (`eval.graders[0].tolerance`,
 * `--grader[0].tolerance`); `path` is where the table is. The schema would drop them without a word.
 */
export const reviewTableKeys = (
  table: unknown,
  known: ReadonlyArray<string>,
  path: ReadonlyArray<PropertyKey>,
  render: (path: ReadonlyArray<PropertyKey>) => string,
): ReadonlyArray<KeyFinding> =>
  isTable(table)
    ? Object.keys(table)
        .filter((key) => !known.includes(key))
        .map((key) => {
          const nearest = nearestName(key, known)
          const meant = nearest === undefined ? undefined : [...path, nearest]
          return {
            severity: "unknown" as const,
            message: `${render([...path, key])}: unknown key${meant === undefined ? "" : ` — did you mean ${render(meant)}?`}`,
            ...(meant === undefined ? {} : { meant }),
          }
        })
    : []

/** The finding of the unknown key that most likely meant the key at `path`: a required key's absence is then explained. */
export const typoFor =
  (findings: ReadonlyArray<KeyFinding>) =>
  (path: ReadonlyArray<PropertyKey>): string | undefined =>
    findings.find(
      ({ meant }) => meant !== undefined && meant.length === path.length && meant.every((key, i) => key === path[i]),
    )?.message
