import { execFileSync } from "node:child_process"
import { lstatSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * Vitest global setup: the suite leaves the checkout as it found it. Every test writes under its own temporary
 * directory; a test that writes into the checkout instead — a user's `runs/`, `.proctor/`, an export beside the
 * README — fails the run here, naming each path it added, changed or removed.
 *
 * Watched: every file git does not track (ignored ones included, walked one by one: `git status` shows an
 * ignored `runs/` as one line whatever is added inside) and every tracked file git sees modified or deleted.
 * Not watched: what installing and building write (`node_modules/`, `dist/`, `.turbo/`, `*.tsbuildinfo`, the docs'
 * generated API pages and VitePress cache): a bare `vitest run` builds when a build is stale.
 */
const root = fileURLToPath(new URL("..", import.meta.url))

const BUILD_OUTPUT =
  /(^|\/)(node_modules|dist|\.turbo)(\/|$)|\.tsbuildinfo$|^apps\/docs\/pages\/reference\/api(\/|$)|(^|\/)\.vitepress\/cache(\/|$)/

const git = (args: ReadonlyArray<string>): Array<string> =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
    .split("\0")
    .filter((path) => path !== "")

/** path → what would change if something wrote it (kind, size, modification time), files and folders alike. */
const snapshot = (): Map<string, string> => {
  const seen = new Map<string, string>()
  const visit = (path: string) => {
    if (BUILD_OUTPUT.test(path)) return
    let stat: ReturnType<typeof lstatSync>
    try {
      stat = lstatSync(join(root, path))
    } catch {
      return // removed while we looked: the next snapshot says so
    }
    if (stat.isDirectory()) {
      seen.set(`${path}/`, "folder")
      for (const entry of readdirSync(join(root, path))) visit(`${path}/${entry}`)
    } else {
      seen.set(path, `${stat.isSymbolicLink() ? "link" : "file"} ${stat.size} bytes, modified ${stat.mtimeMs}`)
    }
  }
  for (const path of git(["ls-files", "-z", "--others", "--directory"])) {
    visit(path.replace(/\/$/, ""))
  }
  for (const path of git(["ls-files", "-z", "--modified", "--deleted"])) {
    if (!seen.has(path)) seen.set(path, describeTracked(path))
  }
  return seen
}

const describeTracked = (path: string): string => {
  try {
    const stat = lstatSync(join(root, path))
    return `tracked, ${stat.size} bytes, modified ${stat.mtimeMs}`
  } catch {
    return "tracked, deleted"
  }
}

const differences = (before: Map<string, string>, after: Map<string, string>): Array<string> => {
  const lines: Array<string> = []
  for (const [path, now] of after) {
    const then = before.get(path)
    if (then === undefined) lines.push(`  added    ${path}`)
    else if (then !== now && !path.endsWith("/")) lines.push(`  changed  ${path}`)
  }
  for (const path of before.keys()) if (!after.has(path)) lines.push(`  removed  ${path}`)
  return lines.sort((a, b) => a.slice(11).localeCompare(b.slice(11)))
}

const isGitCheckout = (): boolean => {
  try {
    return (
      execFileSync("git", ["rev-parse", "--is-inside-work-tree"], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim() === "true"
    )
  } catch {
    return false
  }
}

export default function checkoutUntouched(): (() => void) | undefined {
  // A source tarball without git has nothing to compare with; the check needs a checkout.
  if (!isGitCheckout()) return undefined
  const before = snapshot()
  return () => {
    const changed = differences(before, snapshot())
    if (changed.length === 0) return
    throw new Error(
      `the tests wrote into the checkout (${root}); a test must write only under its own temporary directory:\n${changed.join("\n")}`,
    )
  }
}
