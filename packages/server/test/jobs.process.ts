import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
const serveMain = join(repoRoot, "packages/server/dist/serveMain.js")

/** The newest modification time (ms) of any file under `dir`. */
export const newestIn = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs)
  }, 0)

/** The child runs the built server; build core and server first when their sources are newer than it. */
export const ensureBuilt = () => {
  const sources = Math.max(
    newestIn(join(repoRoot, "packages/core/src")),
    newestIn(join(repoRoot, "packages/server/src")),
  )
  if (existsSync(serveMain) && statSync(serveMain).mtimeMs >= sources) return
  for (const pkg of ["core", "server"]) {
    execFileSync("npx", ["tsc", "-p", join(repoRoot, `packages/${pkg}/tsconfig.build.json`)], {
      cwd: repoRoot,
      stdio: "ignore",
      timeout: 240_000,
    })
  }
}

export interface ServerProcess {
  readonly child: ChildProcess
  readonly url: string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly stderr: () => string
}

export const children = new Set<ChildProcess>()

/** `node dist/serveMain.js --data-dir DIR --port 0` as a real process; resolves once it prints its URL. */
export const startServerProcess = async (
  dataDir: string,
  extra: ReadonlyArray<string> = [],
  nodeArgs: ReadonlyArray<string> = [],
): Promise<ServerProcess> => {
  const env = { ...process.env }
  delete env.PROCTOR_SECRET_KEY
  const child = spawn(process.execPath, [...nodeArgs, serveMain, "--data-dir", dataDir, "--port", "0", ...extra], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  })
  children.add(child)
  let stdout = ""
  let stderr = ""
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      children.delete(child)
      resolve({ code, signal })
    }),
  )
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
      const line = stdout.split("\n")[0]
      if (stdout.includes("\n")) resolve((JSON.parse(line!) as { url: string }).url)
    })
    void exited.then(({ code }) => reject(new Error(`server exited with ${code}: ${stderr}`)))
  })
  return { child, url, exited, stderr: () => stderr }
}

/** Peak and current resident memory of a process, from /proc (Linux). */
export const memoryOf = (pid: number): { readonly peakKb: number; readonly rssKb: number } | null => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN)
    return { peakKb: field("VmHWM"), rssKb: field("VmRSS") }
  } catch {
    return null
  }
}
