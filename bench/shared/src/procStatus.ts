import { readFileSync } from "node:fs"

export interface ProcMemory {
  /** Bytes, from /proc/PID/status. */
  readonly rss: number
  /** Peak RSS so far (VmHWM). */
  readonly hwm: number
  /** Anonymous memory (heaps, malloc). */
  readonly anon: number
  /** File-backed + shared memory (mapped files, SQLite's -shm). */
  readonly fileAndShmem: number
}

/** A process's memory from /proc/PID/status, or null once it is gone. */
export const procMemory = (pid: number): ProcMemory | null => {
  let status: string
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8")
  } catch {
    return null
  }
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) * 1024
  return { rss: kb("VmRSS"), hwm: kb("VmHWM"), anon: kb("RssAnon"), fileAndShmem: kb("RssFile") + kb("RssShmem") }
}
