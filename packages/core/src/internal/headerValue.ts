/** A header's (first) value, as node and undici hand headers over: a repeated header is a list. */
export const headerValue = (value: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof value === "string" ? value : value?.[0]
