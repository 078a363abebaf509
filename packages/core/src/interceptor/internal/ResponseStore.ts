import { createHash } from "node:crypto"
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises"
import { join } from "node:path"
import { randomHex } from "../../internal/randomHex.js"

/** One stored answer: the upstream's status, content type and body bytes as they came (a stream's events too). */
export interface StoredAnswer {
  readonly status: number
  readonly contentType: string
  readonly body: Buffer
}

interface EntryHeader {
  readonly v: 1
  readonly status: number
  readonly content_type: string
  readonly bytes: number
  readonly sha256: string
}

const NEWLINE = 0x0a

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex")

/** An entry's bytes back, or null when they are not a whole entry (never expected: entries appear by rename). */
const decodeEntry = (file: Buffer): StoredAnswer | null => {
  const end = file.indexOf(NEWLINE)
  if (end === -1) return null
  let header: EntryHeader
  try {
    header = JSON.parse(file.subarray(0, end).toString("utf8")) as EntryHeader
  } catch {
    return null
  }
  const body = file.subarray(end + 1)
  if (header.v !== 1 || body.length !== header.bytes || sha256(body) !== header.sha256) return null
  return { status: header.status, contentType: header.content_type, body }
}

/**
 * The response cache's store: one file per answer, named by its key (`<dir>/<k[0..2]>/<key>`), so any number
 * of runs and processes share it with no lock and no server. An entry is written to a temporary file of its
 * own, then renamed into place: readers see a whole entry or none, a process killed mid-write leaves
 * only a `*.tmp` file nobody reads, and two runs storing the same key race harmlessly (the last rename wins;
 * both wrote an answer to the same request). Each entry carries its length and SHA-256, checked on every read,
 * so a damaged file is a miss, never a wrong answer: that is also why there is no fsync (a power loss can leave an
 * entry's file empty or cut short, which reads as a miss). Plain promises: it sits in the interceptor's call path.
 */
export class ResponseStore {
  constructor(readonly dir: string) {}

  private pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), key)
  }

  async get(key: string): Promise<StoredAnswer | null> {
    let file: Buffer
    try {
      file = await readFile(this.pathOf(key))
    } catch {
      return null
    }
    return decodeEntry(file)
  }

  async put(key: string, answer: StoredAnswer): Promise<void> {
    const path = this.pathOf(key)
    const header: EntryHeader = {
      v: 1,
      status: answer.status,
      content_type: answer.contentType,
      bytes: answer.body.length,
      sha256: sha256(answer.body),
    }
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true })
    const temporary = `${path}.${process.pid}.${randomHex(4)}.tmp`
    const handle = await open(temporary, "wx")
    try {
      await handle.writeFile(Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), answer.body]))
    } finally {
      await handle.close()
    }
    try {
      await rename(temporary, path)
    } catch (error) {
      await unlink(temporary).catch(() => undefined)
      throw error
    }
  }
}
