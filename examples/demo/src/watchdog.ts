/**
 * Preloaded (`node --import`) into every process the demo starts. The demo holds the write end of the
 * child's stdin and never writes to it, so end-of-file means the demo is gone, however it died (even
 * SIGKILL, which no handler sees). The child then stops as if told to: SIGTERM first, so the task apps close
 * their servers and the CLI keeps its finished results, and a hard exit if that takes too long.
 */
const GRACE_MS = 5_000

let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  setTimeout(() => process.exit(1), GRACE_MS).unref()
  process.kill(process.pid, "SIGTERM")
}

process.stdin.on("end", stop)
process.stdin.on("close", stop)
process.stdin.on("error", stop)
process.stdin.resume()
// Watching must not keep a process alive that has finished its work (the CLI exits when its loop drains).
;(process.stdin as { unref?: () => void }).unref?.()
