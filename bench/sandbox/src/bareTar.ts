import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"

/**
 * The bare client's tar, built in memory: `directoryEntries` of host directories (regular files and directories,
 * modes kept, under a relative prefix) and `emptyDirectory` entries, closed by `tarOf`. Enough for a Harbor
 * task's small directories.
 */
export const tarOf = (entries: ReadonlyArray<Buffer>): Buffer => Buffer.concat([...entries, Buffer.alloc(1024)])

export const directoryEntries = (hostDir: string, prefix: string): Array<Buffer> => {
  const blocks: Array<Buffer> = []
  const walk = (host: string, path: string) => {
    const stat = statSync(host)
    if (stat.isDirectory()) {
      blocks.push(header(`${path}/`, 0, stat.mode & 0o7777, "5"))
      for (const name of readdirSync(host).sort()) walk(join(host, name), `${path}/${name}`)
      return
    }
    const body = readFileSync(host)
    blocks.push(
      header(path, body.length, stat.mode & 0o7777, "0"),
      body,
      Buffer.alloc((512 - (body.length % 512)) % 512),
    )
  }
  walk(hostDir, prefix)
  return blocks
}

/** An empty directory, for one a script writes into. */
export const emptyDirectory = (path: string): Buffer => header(`${path}/`, 0, 0o755, "5")

const octal = (value: number, width: number): string => `${value.toString(8).padStart(width - 1, "0")}\u0000`

const header = (path: string, size: number, mode: number, type: "0" | "5"): Buffer => {
  if (Buffer.byteLength(path) > 100) throw new Error(`path too long for the bare client's tar: ${path}`)
  const block = Buffer.alloc(512)
  block.write(path, 0, 100, "utf8")
  block.write(octal(mode, 8), 100)
  block.write(octal(0, 8), 108)
  block.write(octal(0, 8), 116)
  block.write(octal(size, 12), 124)
  block.write(octal(Math.floor(Date.now() / 1000), 12), 136)
  block.write("        ", 148)
  block.write(type, 156)
  block.write("ustar\u000000", 257)
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148)
  return block
}

/** The first regular file of an archive (what `GET /containers/{id}/archive` of one file returns). */
export const firstFileOf = (archive: Buffer): Buffer | null => {
  for (let offset = 0; offset + 512 <= archive.length; ) {
    const block = archive.subarray(offset, offset + 512)
    const size = Number.parseInt(block.subarray(124, 136).toString("ascii").replace(/\0.*$/s, "").trim() || "0", 8)
    const type = String.fromCharCode(block[156] ?? 0)
    if (type === "0" || type === "\0") return archive.subarray(offset + 512, offset + 512 + size)
    offset += 512 + Math.ceil(size / 512) * 512
  }
  return null
}
