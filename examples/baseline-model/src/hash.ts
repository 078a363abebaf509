/** FNV-1a (32-bit): a cheap, stable hash so every "random" choice is seeded by the request content alone. */
export const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}
