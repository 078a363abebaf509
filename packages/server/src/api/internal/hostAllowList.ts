const parseEntry = (entry: string): { readonly host: string; readonly port: string | null } => {
  if (entry.startsWith("[")) {
    const bracketed = /^\[(.*)\](?::(\d+))?$/.exec(entry)
    return { host: bracketed?.[1] ?? entry, port: bracketed?.[2] ?? null }
  }
  // One colon is host:port; more is a bare IPv6 address.
  const colons = entry.split(":").length - 1
  if (colons === 1) {
    const [host, port] = entry.split(":")
    return { host: host!, port: port! }
  }
  return { host: entry, port: null }
}

/**
 * Entries are host names (`tasks.internal`), host:port (`127.0.0.1:8103`, `[::1]:8103`) or suffix wildcards
 * (`*.tasks.internal`), compared case-insensitively.
 */
export const hostAllowed = (url: URL, allowList: ReadonlyArray<string>): boolean => {
  const hostname = url.hostname.toLowerCase().replace(/^\[|\]$/g, "")
  const port = url.port || (url.protocol === "https:" ? "443" : "80")
  return allowList.some((raw) => {
    const entry = raw.trim().toLowerCase()
    if (entry.startsWith("*.")) return hostname.endsWith(entry.slice(1))
    const allowed = parseEntry(entry)
    return allowed.host === hostname && (allowed.port === null || allowed.port === port)
  })
}
