import { readdirSync, readFileSync } from "node:fs"

/** Host pids of `root` and every process below it, from /proc (parents first). */
export const processTree = (root: number): Array<number> => {
  const children = new Map<number, Array<number>>()
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    const parent = parentPid(pid)
    if (parent === null) continue
    const siblings = children.get(parent)
    if (siblings === undefined) children.set(parent, [pid])
    else siblings.push(pid)
  }
  const tree = [root]
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i] as number) ?? []))
  return tree
}

const parentPid = (pid: number): number | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return Number(fields[1])
  } catch {
    return null
  }
}

/** The process's start time in clock ticks since boot (field 22 of /proc/PID/stat): a pid with it is that process. */
export const processStartTime = (pid: number): string | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null
  } catch {
    return null
  }
}

/** The kernel's PF_EXITING: set as soon as a process starts to exit, before its children are gone. */
const PF_EXITING = 0x4

/** Whether the process that had `start` is still running (one exiting, or a zombie waiting to be reaped, is not). */
export const processAlive = (pid: number, start: string | null): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const exiting = (Number(fields[6]) & PF_EXITING) !== 0
    return fields[19] === start && !exiting && fields[0] !== "Z" && fields[0] !== "X"
  } catch {
    return false
  }
}

/** SIGKILLs a process and all its descendants (stopped first so none forks away while the tree is walked). */
export const killProcessTree = (root: number): void => {
  const tree = processTree(root)
  for (const pid of tree) signal(pid, "SIGSTOP")
  for (const pid of processTree(root).concat(tree)) signal(pid, "SIGKILL")
}

const signal = (pid: number, name: NodeJS.Signals): void => {
  try {
    process.kill(pid, name)
  } catch {
    // Already gone.
  }
}
