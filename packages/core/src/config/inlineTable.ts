import { parse as parseToml } from "smol-toml"

/**
 * A TOML inline table typed on one line (`{ model = "gpt-4o-mini", temperature = 0 }`), as `--grader` and `--judge`
 * take one: the same table the config file holds. Throws an `Error` saying what is wrong, for the caller to place.
 */
export const parseInlineTable = (line: string): unknown => {
  const text = line.trim()
  if (!text.startsWith("{")) throw new Error('expected an inline TOML table ({ key = "value" })')
  try {
    return parseToml(`table = ${text}`).table
  } catch (error) {
    throw new Error(`not an inline TOML table: ${(error as Error).message.split("\n")[0]}`)
  }
}
