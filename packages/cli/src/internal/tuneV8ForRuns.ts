import { setFlagsFromString } from "node:v8"

/**
 * V8 flags for running a command, set once its code has loaded. Not at start-up: with any flag off its default,
 * V8 rejects the code cache node ships for its own modules, and each one loaded afterwards (node:http, net,
 * crypto…) is compiled from source — about 3× the time. Set here, only what a command loads while it runs is
 * compiled without it.
 */
export const tuneV8ForRuns = (): void => {
  // A run allocates steadily but keeps little alive (results stream to disk). V8's default lets the old
  // generation grow about 4× past the live set between full collections; 50% keeps peak RSS near what is
  // really used (measured: 210 → ~160 MB for 100,000 rollouts) at no measurable cost in throughput.
  setFlagsFromString("--heap-growing-percent=50")
  // undici parses HTTP with llhttp, in WebAssembly. V8 recompiled its 34 KB parser function with TurboFan after
  // the first response: ~270 ms of CPU on a background thread, ~35 MB of peak RSS, and a process that waited for
  // that compile before it could exit (a one-seed eval's exit came 130–300 ms late). Liftoff's code parses as fast
  // here: over 40,000 requests through undici's Pool, CPU per request was the same or lower without TurboFan. Set
  // before the first request compiles the parser.
  setFlagsFromString("--liftoff-only")
}
