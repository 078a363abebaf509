const SECRET_KEY = /(^|[_-])(api[_-]?keys?|keys?|token|secrets?|passwords?|authorization|credentials?)$/i

/**
 * A copy of a config table without the values of secret-looking keys (`api_key`, `token`, …), at any
 * depth. They are dropped, not masked: nothing downstream should mistake a placeholder for a key.
 */
export const withoutSecrets = (table: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(table)) {
    if (SECRET_KEY.test(key)) continue
    out[key] =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? withoutSecrets(value as Record<string, unknown>)
        : value
  }
  return out
}
