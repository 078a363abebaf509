import { setFlagsFromString } from "node:v8"

/**
 * Each flag a run sets, with the flags that put V8 back as it started: a code cache is taken only under the flags
 * it was made with, and the build makes the eval script's after a run (scripts/warmCodeCache.mjs). `--liftoff-only`
 * turns two wasm tiering flags off as it goes on; its reset turns them on again.
 */
const RUN_FLAGS: ReadonlyArray<{ readonly set: string; readonly reset: ReadonlyArray<string> }> = [
  // A run allocates steadily but keeps little alive (results stream to disk). V8's default lets the old
  // generation grow about 4× past the live set between full collections; 50% keeps peak RSS near what is
  // really used (measured: 210 → ~160 MB for 100,000 rollouts) at no measurable cost in throughput.
  { set: "--heap-growing-percent=50", reset: ["--heap-growing-percent=0"] },
  // undici parses HTTP with llhttp, in WebAssembly. V8 recompiled its 34 KB parser function with TurboFan after
  // the first response: ~270 ms of CPU on a background thread, ~35 MB of peak RSS, and a process that waited for
  // that compile before it could exit (a one-seed eval's exit came 130–300 ms late). Liftoff's code parses as fast
  // here: over 40,000 requests through undici's Pool, CPU per request was the same or lower without TurboFan. Set
  // before the first request compiles the parser.
  { set: "--liftoff-only", reset: ["--no-liftoff-only", "--wasm-tier-up", "--wasm-dynamic-tiering"] },
]

/**
 * V8 flags for running a command, set once its code has loaded. Not at start-up: with any flag off its default,
 * V8 rejects the code cache node ships for its own modules, and each one loaded afterwards (node:http, net,
 * crypto…) is compiled from source — about 3× the time. Set here, only what a command loads while it runs is
 * compiled without it.
 */
export const tuneV8ForRuns = (): void => {
  for (const flag of RUN_FLAGS) setFlagsFromString(flag.set)
}

/** V8's flags as they were before `tuneV8ForRuns`, so a code cache made now is one a new process takes. */
export const untuneV8ForRuns = (): void => {
  for (const flag of RUN_FLAGS) for (const reset of flag.reset) setFlagsFromString(reset)
}
