import { inflateRawSync } from "node:zlib"

export interface ZipEntry {
  readonly name: string
  readonly data: Uint8Array
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
const STORED = 0
const DEFLATED = 8

/**
 * Reads the entries of a zip archive (stored or deflated, not zip64, not encrypted): enough for a job
 * server's trace zip without a dependency. Sizes come from the central directory, so entries written with
 * data descriptors (streamed zips) read the same. Throws an Error saying what is wrong with a bad archive.
 */
export const unzip = (archive: Uint8Array): Array<ZipEntry> => {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength)
  // The end record is at least 22 bytes and may be followed by a comment of up to 65,535 bytes.
  let end = -1
  for (let i = archive.length - 22; i >= Math.max(0, archive.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i
      break
    }
  }
  if (end === -1) throw new Error("not a zip archive (no end of central directory)")
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  const decoder = new TextDecoder()
  const entries: Array<ZipEntry> = []
  for (let n = 0; n < count; n++) {
    if (at + 46 > archive.length || view.getUint32(at, true) !== CENTRAL) {
      throw new Error("corrupt zip archive (bad central directory)")
    }
    const flags = view.getUint16(at + 8, true)
    const method = view.getUint16(at + 10, true)
    const compressedSize = view.getUint32(at + 20, true)
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    const localOffset = view.getUint32(at + 42, true)
    const name = decoder.decode(archive.subarray(at + 46, at + 46 + nameLength))
    at += 46 + nameLength + extraLength + commentLength
    if (compressedSize === 0xffffffff || localOffset === 0xffffffff) throw new Error(`${name}: zip64 is not supported`)
    if ((flags & 1) !== 0) throw new Error(`${name}: encrypted zip entries are not supported`)
    if (view.getUint32(localOffset, true) !== LOCAL) throw new Error(`${name}: corrupt zip archive (bad local header)`)
    const start = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true)
    const raw = archive.subarray(start, start + compressedSize)
    if (name.endsWith("/")) continue
    if (method === STORED) entries.push({ name, data: raw })
    else if (method === DEFLATED) entries.push({ name, data: new Uint8Array(inflateRawSync(raw)) })
    else throw new Error(`${name}: unsupported zip compression method ${method}`)
  }
  return entries
}
