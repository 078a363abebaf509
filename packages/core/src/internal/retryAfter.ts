/** `Retry-After` is either delay-seconds or an HTTP date. */
export const parseRetryAfter = (header: string | undefined, now: number): number | undefined => {
  if (header === undefined || header.trim() === "") return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
