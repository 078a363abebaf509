import { Cause } from "effect"

/** A failure's own message (a tagged error's `message`), else the whole cause: for a process that cannot start. */
export const causeMessage = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.failureOption(cause)
  if (
    failure._tag === "Some" &&
    typeof failure.value === "object" &&
    failure.value !== null &&
    "message" in failure.value
  ) {
    return String((failure.value as { message: unknown }).message)
  }
  return Cause.pretty(cause)
}
