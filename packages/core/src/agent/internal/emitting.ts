import { Effect, Stream } from "effect"

export type Emitted<I, A> = { readonly _tag: "Item"; readonly item: I } | { readonly _tag: "End"; readonly value: A }

/**
 * A stream made from a plain loop: `body` emits items as it goes and its result is the stream's last element.
 * The loop runs in the stream's scope, so closing the stream (the first final result, a timeout) interrupts it.
 */
export const emitting = <I, A, E>(
  body: (emit: (item: I) => Effect.Effect<void>) => Effect.Effect<A, E>,
): Stream.Stream<Emitted<I, A>, E> =>
  Stream.asyncScoped<Emitted<I, A>, E>((emit) =>
    Effect.forkScoped(
      body((item) => Effect.asVoid(Effect.promise(() => emit.single({ _tag: "Item", item })))).pipe(
        Effect.matchEffect({
          onFailure: (error) => Effect.promise(() => emit.fail(error)),
          onSuccess: (value) =>
            Effect.zipRight(
              Effect.promise(() => emit.single({ _tag: "End", value })),
              Effect.promise(() => emit.end()),
            ),
        }),
      ),
    ),
  )
