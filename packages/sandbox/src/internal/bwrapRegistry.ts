import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import type { PruneOutcome } from "@proctor/core"
import { cgroupPids, removeCgroups } from "./cgroups.js"
import { openerMayRun } from "./openerProcess.js"
import { processStartTime } from "./processTree.js"

/**
 * Where bubblewrap sandboxes are written down while they live, one directory per sandbox under its run
 * (`<root>/<runId>/<sandboxId>/`): its processes (pid and start time, so a reused pid is not mistaken for it), its
 * cgroups, and the directories bound into it. What a `kill -9` of proctor leaves behind is found here by `prune`.
 */
export interface BwrapRecord {
  /** The bwrap process proctor started (or the wrapper that became it). */
  readonly bwrapPid: number
  readonly bwrapStart: string | null
  /** bwrap's child: the sandbox's first process, whose namespaces commands enter. */
  readonly childPid: number
  readonly childStart: string | null
  readonly cgroups: ReadonlyArray<string>
  /** The proctor process that opened it (`openerProcess`): a prune without a run leaves it while that runs. */
  readonly opener: string
}

export const defaultRegistryRoot = (): string => join(tmpdir(), "proctor-sandboxes")

export const sandboxDir = (root: string, runId: string, sandboxId: string): string =>
  join(root, encodeURIComponent(runId), sandboxId)

export const writeRecord = (dir: string, record: BwrapRecord): void => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "sandbox.json"), JSON.stringify(record))
}

const readRecord = (dir: string): BwrapRecord | null => {
  try {
    return JSON.parse(readFileSync(join(dir, "sandbox.json"), "utf8")) as BwrapRecord
  } catch {
    return null
  }
}

const killIfSame = (pid: number, start: string | null): void => {
  if (pid > 0 && start !== null && processStartTime(pid) === start) kill(pid)
}

const kill = (pid: number): void => {
  try {
    process.kill(pid, "SIGKILL")
  } catch {
    // Already gone.
  }
}

/**
 * Ends everything of one sandbox: its processes (the sandbox's first process is its pid namespace's init, and the
 * kernel kills every process of the namespace with it), whatever else sits in its cgroups (the nsenter and sh
 * that started commands, outside the namespace), the cgroups, and its directory. `exited` (bwrap's end, when this
 * process started it) is awaited, so nothing of the namespace is left when this resolves.
 */
export const destroySandbox = async (
  dir: string,
  record: BwrapRecord | null = readRecord(dir),
  exited?: Promise<void>,
): Promise<void> => {
  if (record !== null) {
    killIfSame(record.childPid, record.childStart)
    killIfSame(record.bwrapPid, record.bwrapStart)
    await exited
    // A cgroup can only be removed once its last process is gone (reaped by its parent); wait for that.
    for (let attempt = 0; attempt < 2000; attempt++) {
      const left = cgroupPids(record.cgroups)
      if (left.length === 0) break
      for (const pid of left) kill(pid)
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    removeCgroups(record.cgroups)
  }
  rmSync(dir, { recursive: true, force: true })
  removeIfEmpty(dirname(dir))
}

/** A run's directory goes with its last sandbox: a machine's runs leave no empty directories behind. */
const removeIfEmpty = (runDir: string): void => {
  try {
    rmdirSync(runDir)
  } catch {
    // Another sandbox of the run is still recorded there, or it is already gone.
  }
}

/**
 * Destroys every recorded sandbox of `runId`; without one, every sandbox whose opening process has ended, those of
 * running processes left and counted.
 */
export const pruneRegistry = async (root: string, runId?: string): Promise<PruneOutcome> => {
  const runs = runId === undefined ? list(root) : [encodeURIComponent(runId)]
  let removed = 0
  let running = 0
  for (const run of runs) {
    for (const sandbox of list(join(root, run))) {
      const dir = join(root, run, sandbox)
      const record = readRecord(dir)
      if (runId === undefined && openerMayRun(record?.opener)) {
        running++
        continue
      }
      await destroySandbox(dir, record)
      removed++
    }
    // A run with no sandbox recorded left its directory only before its sandboxes took it with them.
    removeIfEmpty(join(root, run))
  }
  return { removed, running }
}

const list = (dir: string): Array<string> => {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
