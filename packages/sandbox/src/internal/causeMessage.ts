/** What a failure says, for a `SandboxError`'s message: an Error's message, anything else as text. */
export const causeMessage = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))
