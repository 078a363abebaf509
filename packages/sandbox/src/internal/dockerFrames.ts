import type { OutputCollector } from "./OutputCollector.js"

/**
 * Splits the daemon's multiplexed exec stream (no TTY): frames of an 8-byte header — stream (1 stdout, 2 stderr),
 * three zero bytes, a big-endian length — then that many bytes.
 */
export class DockerFrameReader {
  private pending = Buffer.alloc(0)

  constructor(
    private readonly stdout: OutputCollector,
    private readonly stderr: OutputCollector,
  ) {}

  push(chunk: Buffer): void {
    let buffer = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk])
    while (buffer.length >= 8) {
      const size = buffer.readUInt32BE(4)
      if (buffer.length < 8 + size) break
      const payload = buffer.subarray(8, 8 + size)
      if (buffer[0] === 2) this.stderr.push(payload)
      else this.stdout.push(payload)
      buffer = buffer.subarray(8 + size)
    }
    this.pending = Buffer.from(buffer)
  }
}
