const SECRET_KEY = /(^|[_-])(api[_-]?keys?|token|secrets?|passwords?|authorization|credentials?)$/i

type Table = Readonly<Record<string, unknown>>

const isTable = (value: unknown): value is Table => typeof value === "object" && value !== null && !Array.isArray(value)

export interface SplitTable {
  readonly rest: Record<string, unknown>
  /** The secret-looking entries, nested as they were. */
  readonly secrets: Record<string, unknown>
  /** Their key paths under `prefix`, e.g. `policy_config.api_key`. */
  readonly paths: ReadonlyArray<string>
}

/** Separates the values of secret-looking keys (`api_key`, `token`, …), at any depth, from the rest. */
export const splitSecrets = (table: Table, prefix: string): SplitTable => {
  const rest: Record<string, unknown> = {}
  const secrets: Record<string, unknown> = {}
  const paths: Array<string> = []
  for (const [key, value] of Object.entries(table)) {
    const path = `${prefix}.${key}`
    if (SECRET_KEY.test(key)) {
      secrets[key] = value
      paths.push(path)
    } else if (isTable(value)) {
      const inner = splitSecrets(value, path)
      rest[key] = inner.rest
      if (inner.paths.length > 0) secrets[key] = inner.secrets
      paths.push(...inner.paths)
    } else {
      rest[key] = value
    }
  }
  return { rest, secrets, paths }
}

/** A copy without secret-looking values: dropped, not masked, so no placeholder is mistaken for a key. */
export const withoutSecrets = (table: Table): Record<string, unknown> => splitSecrets(table, "").rest

/** `withoutSecrets` for any JSON value, lists included: for documents proctor did not write itself. */
export const redactSecrets = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redactSecrets)
  if (!isTable(value)) return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) if (!SECRET_KEY.test(key)) out[key] = redactSecrets(inner)
  return out
}

/** Lays secrets split off earlier back over a table. */
export const withSecrets = (table: Table, secrets: Table): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...table }
  for (const [key, value] of Object.entries(secrets)) {
    const current = out[key]
    out[key] = isTable(value) && isTable(current) ? withSecrets(current, value) : value
  }
  return out
}
