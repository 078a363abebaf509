import { randomFillSync } from "node:crypto"

const POOL_BYTES = 8192
const pool = Buffer.alloc(POOL_BYTES)
let offset = POOL_BYTES

/** Random hex from a pooled buffer: one syscall per 8 KiB instead of one per id (ids are minted per rollout). */
export const randomHex = (bytes: number): string => {
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool)
    offset = 0
  }
  const hex = pool.toString("hex", offset, offset + bytes)
  offset += bytes
  return hex
}
