import { accessSync, constants } from "node:fs"
import { delimiter, join } from "node:path"

/**
 * Whether an executable `name` is on the PATH: a look at the filesystem, where running the program to ask (`--version`)
 * costs a process start in the middle of proctor's own.
 */
export const onPath = (name: string, path = process.env.PATH ?? ""): boolean =>
  path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, name), constants.X_OK)
        return true
      } catch {
        return false
      }
    })
