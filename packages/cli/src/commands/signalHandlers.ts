import type { RunControl } from "@proctor/core"

/** First Ctrl-C: stop taking work, let in-flight rollouts finish for a grace period. Second: abandon them. */
export const installSignalHandlers = (control: RunControl, graceSeconds: number) => {
  let graceTimer: NodeJS.Timeout | undefined
  const onSignal = () => {
    if (control.isStopRequested()) return control.cancelInFlight()
    control.requestStop()
    graceTimer = setTimeout(control.cancelInFlight, graceSeconds * 1000)
    graceTimer.unref()
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  return () => {
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
    if (graceTimer !== undefined) clearTimeout(graceTimer)
  }
}
