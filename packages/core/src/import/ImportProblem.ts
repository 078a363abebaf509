import { ConfigError } from "../config/ConfigError.js"

/**
 * Something an imported file holds that proctor cannot run as its source would: thrown by the (synchronous) readers
 * with the key path it is about, turned into one `ConfigError` line (exit 2) at their edge.
 */
export class ImportProblem extends Error {
  constructor(
    /** Where, as a key path in the source's own terms: `tests[3].assert[1].type`. */
    readonly path: string,
    message: string,
  ) {
    super(message)
  }
}

/** The reader's problem as the one line `proctor eval` prints: the file, the key path, what is wrong. */
export const importConfigError = (file: string) => (error: unknown) =>
  new ConfigError({
    reason: "InvalidValue",
    message:
      error instanceof ImportProblem
        ? `${file}: ${error.path === "" ? "" : `${error.path}: `}${error.message}`
        : `${file}: ${(error as Error).message}`,
  })

/** A short rendering of a value for a message (`"perplexity"`, `42`, `{…}`). */
export const shown = (value: unknown): string =>
  typeof value === "string"
    ? JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)
    : typeof value === "object" && value !== null
      ? Array.isArray(value)
        ? "a list"
        : "a table"
      : String(value)
