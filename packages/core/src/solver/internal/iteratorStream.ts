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
    // Interrupted while the generator works on a step: abort what it waits on, and do not wait for it.
    return Effect.async<IteratorResult<A, A | undefined>, Option.Option<E>>((resume) => {
      iterator.next().then(
        (step) => {
          pending = false
          resume(Effect.succeed(step))
        },
        (error: unknown) => {
          pending = false
          resume(Effect.fail(Option.some(onError(error))))
        },
      )
      return Effect.sync(abort)
    }).pipe(
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
