import type { StoreError } from "@proctor/core"
import { Stream } from "effect"
import { Zip, ZipDeflate } from "fflate"

export interface ZipFile {
  readonly name: string
  readonly data: Uint8Array
}

/**
 * A zip archive of `files`, streamed: each file is deflated as it arrives and its bytes passed on, so a run's
 * 100,000 traces never sit in memory together (fflate's streaming `Zip`, which calls back synchronously).
 */
export const zipStream = <E>(files: Stream.Stream<ZipFile, E>): Stream.Stream<Uint8Array, E | StoreError> =>
  Stream.suspend(() => {
    const pending: Array<Uint8Array> = []
    let failure: Error | null = null
    const zip = new Zip((error, chunk) => {
      if (error !== null) failure = error
      else pending.push(chunk)
    })
    const drain = (): Array<Uint8Array> => {
      if (failure !== null) throw failure
      return pending.splice(0)
    }
    const add = (file: ZipFile) => {
      const entry = new ZipDeflate(file.name, { level: 6 })
      zip.add(entry)
      entry.push(file.data, true)
      return drain()
    }
    return files.pipe(
      Stream.mapConcat(add),
      Stream.concat(
        Stream.suspend(() => {
          zip.end()
          return Stream.fromIterable(drain())
        }),
      ),
    )
  })
