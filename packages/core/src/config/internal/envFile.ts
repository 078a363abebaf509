import { Either } from "effect"

/** dotenv syntax: `KEY=value`, optional `export `, `#` comments, single or double quotes. */
export const parseEnvFile = (text: string): Either.Either<Record<string, string>, string> => {
  const vars: Record<string, string> = {}
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim()
    if (line === "" || line.startsWith("#")) continue
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line)
    if (!match) return Either.left(`line ${i + 1} is not KEY=VALUE`)
    const [, key, rawValue = ""] = match
    const quoted = /^(["'])(.*)\1$/.exec(rawValue)
    vars[key as string] = quoted ? (quoted[2] ?? "") : rawValue.replace(/\s+#.*$/, "")
  }
  return Either.right(vars)
}
