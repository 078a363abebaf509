import { cpSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { REPO_ROOT } from "@proctor/bench-shared"

/** The example tasks the oracle solves on `proctor-busybox` (memory-hog needs proctor-debian and is left out). */
export const ORACLE_TASKS = ["find-the-secret", "hello-file", "reverse-words", "sum-numbers"] as const

/**
 * `copies` copies of each of `ORACLE_TASKS` (`hello-file-07`, …) in a fresh temp directory. Their
 * `environment/` directories are byte for byte the same, so proctor builds one image for all of them.
 */
export const makeHarborTasks = (copies: number): string => {
  const dir = mkdtempSync(join(tmpdir(), "proctor-bench-tasks-"))
  for (const task of ORACLE_TASKS) {
    const source = join(REPO_ROOT, "examples/tasks", task)
    const from = readFileSync(join(source, "environment/Dockerfile"), "utf8")
    if (!/^FROM proctor-busybox$/m.test(from)) throw new Error(`${task} no longer builds FROM proctor-busybox`)
    for (let i = 0; i < copies; i++) {
      cpSync(source, join(dir, `${task}-${String(i).padStart(2, "0")}`), { recursive: true })
    }
  }
  return dir
}
