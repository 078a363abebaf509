/**
 * How the interceptor's process asks the probes on the interceptor's thread: a BroadcastChannel of this name
 * (every thread of the process that opens it hears the others), so the bench needs no handle on the thread.
 *
 *   {probe: id, op: "memory", gc}  → {probe: id, heapUsed, heapTotal, external, arrayBuffers}
 *   {probe: id, op: "pauses"}      → {probe: id, loopDelays [ms], minor {count, ms, max}, major {…},
 *                                    stalls [[start, ms]], gcPauses [[start, ms]]}
 *                                   since the last "pauses": event-loop delay (sampled every 2 ms), GC pauses,
 *                                   in ms; starts are epoch ms
 *   {probe: id, op: "tick", on}    → {probe: id}   starts or stops the 2 ms timer: each of its ticks wakes the
 *                                   thread, which costs CPU the interceptor would not spend (tens of µs a tick
 *                                   on a VM), so CPU per call is measured with it stopped
 */
export const PROBE_CHANNEL = "proctor-bench-interceptor-probes"

export interface ProbeRequest {
  readonly probe: number
  readonly op: "memory" | "pauses" | "tick"
  readonly gc?: boolean
  readonly on?: boolean
}
