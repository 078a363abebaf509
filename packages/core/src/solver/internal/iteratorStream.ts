import { Effect, Option, Stream } from "effect"

/**
 * An async iterator (an `async function*`'s generator) as a stream of what it yields, then what it returns (when
 * not undefined). Unlike `Stream.fromAsyncIterable` it keeps the return value, and it closes the generator
 * (`return()`, so its `finally` blocks run) whenever the stream ends early: the consumer took what it needed, or
 * was interrupted. A generator stopped in the middle of a step (awaiting) is told to return but not waited for:
 * `abort` is called so whatever it awaits can give up.
 */
export const iteratorStream = <A, E>(
  iterator: AsyncIterator<A, A | undefined>,
  onError: (error: unknown) => E,
  abort: () => void,
): Stream.Stream<A, E> => {
  let finished = false
  let pending = false
  const close = Effect.suspend(() => {
    if (finished || iterator.return === undefined) return Effect.void
    finished = true
    const returned = Promise.resolve()
      .then(() => iterator.return!())
      .catch(() => undefined)
    if (pending) {
      abort()
      return Effect.void
    }
    return Effect.promise(() => returned)
  })
  const next = Effect.suspend(() => {
    if (finished) return Effect.fail(Option.none())
    pending = true
    return Effect.tryPromise({
      try: () => iterator.next(),
      catch: (error) => Option.some(onError(error)),
    }).pipe(
      Effect.ensuring(Effect.sync(() => (pending = false))),
      Effect.flatMap((step) => {
        if (!step.done) return Effect.succeed(step.value)
        finished = true
        return step.value === undefined ? Effect.fail(Option.none()) : Effect.succeed(step.value)
      }),
    )
  })
  return Stream.ensuring(Stream.repeatEffectOption(next), close)
}

export const isAsyncIterator = (value: unknown): value is AsyncIterator<unknown, unknown> =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { next?: unknown }).next === "function" &&
  typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
