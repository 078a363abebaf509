import { execFileSync, spawnSync } from "node:child_process"
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CLK_TCK, freePort, processCpu } from "@proctor/bench-shared"

/**
 * A PostgreSQL cluster of the bench's own (initdb in a temp dir, its own port), so every CPU second it spends is
 * this bench's: the machine's shared PostgreSQL also serves other people's tests. Default settings apart from the
 * port and the socket directory. PostgreSQL refuses to run as root, so it runs as the `postgres` user when this
 * process is root.
 */
export interface OwnPostgres {
  /** A new empty database; its URL. */
  readonly createDatabase: (name: string) => string
  /** User + system CPU seconds of the whole cluster so far: the postmaster, its live children and reaped ones. */
  readonly cpuSeconds: () => number
  readonly stop: () => void
}

const binDir = () => {
  for (const dir of ["/usr/lib/postgresql"]) {
    try {
      const versions = readdirSync(dir).sort((a, b) => Number(b) - Number(a))
      if (versions[0] !== undefined) return join(dir, versions[0], "bin")
    } catch {
      // not Debian's layout
    }
  }
  return ""
}

const asPostgres = (command: string, args: ReadonlyArray<string>) => {
  const bin = binDir()
  const path = bin === "" ? command : join(bin, command)
  const root = process.getuid?.() === 0
  const result = spawnSync(root ? "runuser" : path, root ? ["-u", "postgres", "--", path, ...args] : [...args], {
    encoding: "utf8",
    cwd: "/tmp",
  })
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`)
  return result.stdout
}

/** CPU of a process including its reaped children (cutime, cstime): a postmaster's exited backends count. */
const cpuWithReaped = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLK_TCK
  } catch {
    return 0
  }
}

const childrenOf = (pid: number): ReadonlyArray<number> => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter((s) => s !== "")
      .map(Number)
  } catch {
    return []
  }
}

export const startOwnPostgres = async (): Promise<OwnPostgres> => {
  const dir = mkdtempSync(join(tmpdir(), "proctor-bench-pg-"))
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim())
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim())
    chownSync(dir, uid, gid)
  }
  const data = join(dir, "data")
  asPostgres("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
  const port = await freePort()
  asPostgres("pg_ctl", [
    "-D",
    data,
    "-l",
    join(dir, "log"),
    "-w",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    "start",
  ])
  const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0])
  let stopped = false
  return {
    createDatabase: (name) => {
      asPostgres("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-c", `CREATE DATABASE ${name}`])
      return `postgres://postgres@127.0.0.1:${port}/${name}`
    },
    cpuSeconds: () => cpuWithReaped(postmaster) + childrenOf(postmaster).reduce((sum, pid) => sum + processCpu(pid), 0),
    stop: () => {
      if (stopped) return
      stopped = true
      try {
        asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "stop"])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
