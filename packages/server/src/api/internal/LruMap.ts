/** A map of at most `capacity` entries: setting one more drops the least recently read or set. */
export interface LruMap<K, V> {
  readonly get: (key: K) => V | undefined
  readonly set: (key: K, value: V) => void
  readonly delete: (key: K) => void
}

// A Map iterates in insertion order, so re-inserting an entry on each use keeps the least recent one first.
export const makeLruMap = <K, V>(capacity: number): LruMap<K, V> => {
  const entries = new Map<K, V>()
  return {
    get: (key) => {
      const value = entries.get(key)
      if (value !== undefined) {
        entries.delete(key)
        entries.set(key, value)
      }
      return value
    },
    set: (key, value) => {
      entries.delete(key)
      entries.set(key, value)
      if (entries.size > capacity) entries.delete(entries.keys().next().value as K)
    },
    delete: (key) => {
      entries.delete(key)
    },
  }
}
