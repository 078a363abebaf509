import { createHash } from "node:crypto"
import { lstat, readdir, readFile, readlink } from "node:fs/promises"
import { join } from "node:path"

/**
 * A build context's content hash: every entry's relative path, type, mode and bytes, in sorted order, plus the
 * Dockerfile's name. Two contexts with the same hash build the same image, so it names the image's tag.
 */
export const contextHash = async (context: string, dockerfile: string): Promise<string> => {
  const hash = createHash("sha256")
  hash.update(`dockerfile\0${dockerfile}\0`)
  const walk = async (relative: string): Promise<void> => {
    const entries = (await readdir(join(context, relative))).sort()
    for (const name of entries) {
      const path = relative === "" ? name : `${relative}/${name}`
      const stat = await lstat(join(context, path))
      hash.update(`${path}\0${stat.mode}\0`)
      if (stat.isDirectory()) await walk(path)
      else if (stat.isSymbolicLink()) hash.update(`${await readlink(join(context, path))}\0`)
      else if (stat.isFile()) hash.update(await readFile(join(context, path)))
    }
  }
  await walk("")
  return hash.digest("hex").slice(0, 20)
}
