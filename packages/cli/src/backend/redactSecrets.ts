/** The same rule as core's config writer: keys named like a key, token, secret, password or credential. */
const SECRET_KEY = /(^|[_-])(api[_-]?keys?|keys?|token|secrets?|passwords?|authorization|credentials?)$/i

/**
 * A copy of a JSON value without secret-looking keys at any depth. A job's stored config comes from a
 * server this CLI does not control, and it is printed and written to files, so it is cleaned here too.
 */
export const redactSecrets = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redactSecrets)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    if (SECRET_KEY.test(key)) continue
    out[key] = redactSecrets(inner)
  }
  return out
}
