/** Keeps at most `maxBytes` of a stream and counts the rest, so a chatty command cannot fill proctor's memory. */
export class OutputCollector {
  private readonly chunks: Array<Buffer> = []
  private kept = 0
  truncated = false

  constructor(
    private readonly maxBytes: number,
    /** Sees every chunk as it comes, before the cap: a caller reading the output live. */
    private readonly listener?: ((chunk: Uint8Array) => void) | undefined,
  ) {}

  push(chunk: Buffer): void {
    this.listener?.(chunk)
    const room = this.maxBytes - this.kept
    if (chunk.length > room) this.truncated = true
    if (room <= 0) return
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk
    this.chunks.push(part)
    this.kept += part.length
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8")
  }
}

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024
