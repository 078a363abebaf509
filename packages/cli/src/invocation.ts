import { readFileSync, realpathSync } from "node:fs"
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve } from "node:path"

type Env = Readonly<Record<string, string | undefined>>

export interface InvocationContext {
  readonly env: Env
  /** The CLI's entry file (`process.argv[1]`). */
  readonly script: string
  readonly cwd: string
}

const SAFE_WORD = /^[\w@%+=:,./-]+$/

/** A word for a POSIX shell: as is when it needs no quoting, else in single quotes. */
export const shellQuote = (word: string): string => (SAFE_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)

const realpath = (path: string): string | null => {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}

const sameFile = (a: string, b: string): boolean => {
  const real = realpath(a)
  return real !== null && real === realpath(b)
}

/** The text of a package.json script as written (pnpm's `npm_lifecycle_script` has the arguments appended). */
const packageScript = (packageJson: string, name: string): string | null => {
  try {
    const scripts = (JSON.parse(readFileSync(packageJson, "utf8")) as { scripts?: Record<string, unknown> }).scripts
    const script = scripts?.[name]
    return typeof script === "string" ? script : null
  } catch {
    return null
  }
}

/**
 * `pnpm proctor` / `npm run proctor --` / …: when a package script started this process and that script is
 * this CLI and nothing more (`node packages/cli/dist/bin.cjs` or `proctor`), so extra words become its arguments.
 */
const viaPackageScript = ({ env, script }: InvocationContext): string | null => {
  const name = env.npm_lifecycle_event
  const packageJson = env.npm_package_json
  if (name === undefined || name === "" || packageJson === undefined) return null
  // `node -- bin.cjs`: see bin.ts for the `--`.
  const words = (packageScript(packageJson, name)?.trim().split(/\s+/) ?? []).filter((word) => word !== "--")
  const runsThisCli =
    (words.length === 1 && words[0] === "proctor") ||
    (words.length === 2 && words[0] === "node" && sameFile(resolve(dirname(packageJson), words[1] ?? ""), script))
  if (!runsThisCli) return null
  const manager = env.npm_config_user_agent?.split("/")[0] ?? basename(env.npm_execpath ?? "npm")
  const quoted = shellQuote(name)
  if (manager.startsWith("pnpm")) return `pnpm ${quoted}`
  if (manager.startsWith("yarn")) return `yarn ${quoted}`
  if (manager.startsWith("bun")) return `bun run ${quoted}`
  return `npm run ${quoted} --`
}

/**
 * `proctor` when that name on the PATH is this very CLI. Package managers put `node_modules/.bin` on the
 * PATH of the scripts they run; the user's shell does not have it, so those entries do not count.
 */
const onPath = ({ env, script }: InvocationContext): string | null => {
  const dirs = (env.PATH ?? "").split(delimiter).filter((dir) => dir !== "" && basename(dir) !== ".bin")
  return dirs.some((dir) => sameFile(join(dir, "proctor"), script)) ? "proctor" : null
}

/** `node <entry file>`: always runs; relative to the working directory when under it. */
const viaNode = ({ script, cwd }: InvocationContext): string => {
  const fromCwd = relative(cwd, script)
  const path = fromCwd !== "" && !fromCwd.startsWith("..") && !isAbsolute(fromCwd) ? fromCwd : script
  return `node ${shellQuote(path)}`
}

/** The command that started this CLI, as a user can type it again in the same directory. */
export const invocation = (context: InvocationContext): string =>
  viaPackageScript(context) ?? onPath(context) ?? viaNode(context)

let current: string | undefined

/**
 * A proctor command line that runs as printed, for hints: `proctorCommand("eval", "--resume", dir)` →
 * `pnpm proctor eval --resume runs/x` on a checkout, `proctor eval --resume runs/x` once installed.
 */
export const proctorCommand = (...args: ReadonlyArray<string>): string => {
  current ??= invocation({ env: process.env, script: process.argv[1] ?? "", cwd: process.cwd() })
  return [current, ...args.map(shellQuote)].join(" ")
}
