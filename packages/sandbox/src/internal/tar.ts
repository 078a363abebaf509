import { spawn } from "node:child_process"
import { lstatSync, readdirSync, readFileSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import type { Readable } from "node:stream"

/**
 * The tar archives Docker's archive endpoints take and give. Single files and empty directories are written here
 * (ustar, a few fields); whole host trees go through the host's GNU tar, which already knows every file type.
 */
export interface TarEntry {
  /** Relative path inside the archive (no leading slash). */
  readonly path: string
  readonly content?: Uint8Array | undefined
  readonly directory?: boolean | undefined
  /** Permission bits; default 0755 for a directory, 0644 for a file. */
  readonly mode?: number | undefined
}

export const tarOf = (entries: ReadonlyArray<TarEntry>): Buffer => {
  const blocks: Array<Buffer> = []
  for (const entry of entries) {
    const body = entry.directory ? Buffer.alloc(0) : Buffer.from(entry.content ?? new Uint8Array())
    const mode = entry.mode ?? (entry.directory ? 0o755 : 0o644)
    blocks.push(header(entry.directory ? `${entry.path}/` : entry.path, body.length, entry.directory === true, mode))
    blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512))
  }
  blocks.push(Buffer.alloc(1024))
  return Buffer.concat(blocks)
}

const header = (path: string, size: number, directory: boolean, mode: number): Buffer => {
  const { name, prefix } = splitName(path)
  const block = Buffer.alloc(512)
  block.write(name, 0, 100, "utf8")
  block.write(octal(mode, 8), 100)
  block.write(octal(0, 8), 108)
  block.write(octal(0, 8), 116)
  block.write(octal(size, 12), 124)
  block.write(octal(Math.floor(Date.now() / 1000), 12), 136)
  block.write("        ", 148)
  block.write(directory ? "5" : "0", 156)
  block.write("ustar\u000000", 257)
  block.write(prefix, 345, 155, "utf8")
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148)
  return block
}

const octal = (value: number, width: number): string => `${value.toString(8).padStart(width - 1, "0")}\u0000`

/** ustar keeps 100 bytes of name and 155 of prefix, split at a slash. */
const splitName = (path: string): { name: string; prefix: string } => {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: "" }
  const cut = path.lastIndexOf("/", path.length - 2)
  const name = path.slice(cut + 1)
  const prefix = path.slice(0, cut)
  if (cut <= 0 || Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155) {
    throw new Error(`path too long for a tar entry: ${path}`)
  }
  return { name, prefix }
}

/**
 * The first entry of an archive: a regular file's content, or `"not-a-file"` (a directory, a link, …).
 * pax and GNU long-name records before it are skipped.
 */
export const firstFileOfTar = (archive: Buffer): Uint8Array | "not-a-file" => {
  let offset = 0
  while (offset + 512 <= archive.length) {
    const block = archive.subarray(offset, offset + 512)
    const size = Number.parseInt(block.subarray(124, 136).toString("ascii").replace(/\0.*$/s, "").trim() || "0", 8)
    const type = String.fromCharCode(block[156] ?? 0)
    const start = offset + 512
    if (type === "x" || type === "g" || type === "L" || type === "K") {
      offset = start + Math.ceil(size / 512) * 512
      continue
    }
    if (type === "0" || type === "\0") return archive.subarray(start, start + size)
    return "not-a-file"
  }
  return "not-a-file"
}

/** Runs the host's tar, feeding or reading `stream`; resolves when it exits 0. */
const runTar = (args: ReadonlyArray<string>, input: Readable | null) => {
  const child = spawn("tar", args, { stdio: ["pipe", "pipe", "pipe"] })
  let stderr = ""
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  child.stdin.on("error", () => {})
  if (input === null) child.stdin.end()
  else {
    input.on("error", (error) => child.stdin.destroy(error))
    input.pipe(child.stdin)
  }
  const done = new Promise<void>((resolve, reject) => {
    child.once("error", reject)
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`tar exited ${code}: ${stderr.trim()}`))))
  })
  return { stdout: child.stdout, done, kill: () => child.kill("SIGKILL") }
}

/** What is packed in memory (`smallTreeTar`); anything larger, or with links or devices, goes through GNU tar. */
const SMALL_TREE = { bytes: 1024 * 1024, entries: 256 }

/**
 * A host file or directory of regular files only, up to `SMALL_TREE`, as an archive built in memory (entries
 * under `archivePath`, permission bits kept); null when it is anything else. A task's `tests/` or `solution/`
 * then costs no `tar` process.
 */
export const smallTreeTar = (hostPath: string, archivePath: string): Buffer | null => {
  const entries: Array<TarEntry> = []
  let bytes = 0
  const walk = (host: string, path: string): boolean => {
    const stat = lstatSync(host)
    if (entries.length >= SMALL_TREE.entries || Buffer.byteLength(path) > 255) return false
    if (stat.isDirectory()) {
      entries.push({ path, directory: true, mode: stat.mode & 0o7777 })
      return readdirSync(host)
        .sort()
        .every((name) => walk(join(host, name), `${path}/${name}`))
    }
    if (!stat.isFile()) return false
    bytes += stat.size
    if (bytes > SMALL_TREE.bytes) return false
    entries.push({ path, content: readFileSync(host), mode: stat.mode & 0o7777 })
    return true
  }
  try {
    return walk(hostPath, archivePath) ? tarOf(entries) : null
  } catch {
    // A name ustar cannot hold, a file that went away: GNU tar says what is wrong.
    return null
  }
}

/**
 * A host file or directory as an archive whose entries sit under `archivePath` (relative): a directory's contents
 * land under it, a file is named it.
 */
export const packHostPath = (hostPath: string, archivePath: string, isDirectory: boolean) => {
  const escaped = archivePath.replace(/[\\,&]/g, "\\$&")
  return isDirectory
    ? runTar(["-C", hostPath, "-c", `--transform=s,^\\.,${escaped},S`, "."], null)
    : runTar(["-C", dirname(hostPath), "-c", `--transform=s,^.*$,${escaped},S`, "--", basename(hostPath)], null)
}

/** Unpacks an archive read from `input` into the host directory `dir`. */
export const unpackInto = (dir: string, input: Readable) => runTar(["-C", dir, "-x", "--no-same-owner"], input).done
