/**
 * How the interceptor's process asks the probes on the interceptor's thread: a BroadcastChannel of this name
 * (every thread of the process that opens it hears the others), so the bench needs no handle on the thread.
 *
 *   {probe: id, op: "memory", gc}  → {probe: id, heapUsed, heapTotal, external, arrayBuffers}
 *   {probe: id, op: "pauses"}      → {probe: id, loopDelays [ms], minor {count, ms, max}, major {…},
 *                                    stalls [[start, ms]], gcPauses [[start, ms]]}
 *                                   since the last "pauses": event-loop delay (sampled every 2 ms), GC pauses,
 *                                   in ms; starts are epoch ms
 */
export const PROBE_CHANNEL = "proctor-bench-interceptor-probes"

export interface ProbeRequest {
  readonly probe: number
  readonly op: "memory" | "pauses"
  readonly gc?: boolean
}
