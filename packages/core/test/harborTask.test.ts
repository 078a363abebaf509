import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { listHarborTaskDirs, loadHarborTask, parseHarborTaskToml } from "../src/agent/HarborTask.js"
import { readReward } from "../src/agent/HarborTaskSolver.js"

const FILE = "tasks/t/task.toml"
const errorOf = (text: string) =>
  Either.getLeft(parseHarborTaskToml(text, FILE)).pipe((e) => (e._tag === "Some" ? e.value.message : null))

describe("task.toml", () => {
  it("fills in Harbor's defaults and keeps the task's own values", () => {
    const config = Either.getOrThrow(
      parseHarborTaskToml(
        'version = "1.0"\n[metadata]\nauthor_name = "a"\n[verifier]\ntimeout_sec = 30.0\nenv = { MODE = "strict" }\n[environment]\nmemory_mb = 64\n',
        FILE,
      ),
    )
    expect(config.verifier).toEqual({ timeout_sec: 30, env: { MODE: "strict" } })
    expect(config.agent).toEqual({})
    expect(config.environment).toEqual({ build_timeout_sec: 600, cpus: 1, memory_mb: 64, storage_mb: 10240 })
  })

  it("an empty file is a task with every default", () => {
    const config = Either.getOrThrow(parseHarborTaskToml("", FILE))
    expect(config.environment.memory_mb).toBe(2048)
    expect(config.verifier.env).toEqual({})
  })

  it("names the file and the key path of each wrong value", () => {
    expect(errorOf('[verifier]\ntimeout_sec = "soon"\n')).toBe(
      `${FILE}: verifier.timeout_sec: expected number, got "soon"`,
    )
    expect(errorOf("[environment]\ncpus = -1\n")).toBe(`${FILE}: environment.cpus: expected a positive number of cpus`)
    expect(errorOf("[agent]\ntimeout_sec = 0\n")).toBe(
      `${FILE}: agent.timeout_sec: expected a positive number of seconds`,
    )
    expect(errorOf("[verifier]\nenv = { N = 1 }\n")).toBe(`${FILE}: verifier.env.N: expected string, got 1`)
  })

  it("says where TOML syntax breaks", () => {
    expect(errorOf("[verifier\ntimeout_sec = 1\n")).toMatch(/^tasks\/t\/task\.toml:1:\d+: not valid TOML: /)
  })
})

describe("task directories", () => {
  const tasksDir = () => {
    const root = mkdtempSync(join(tmpdir(), "proctor-harbor-tasks-"))
    for (const name of ["b-task", "a-task"]) {
      mkdirSync(join(root, name, "tests"), { recursive: true })
      writeFileSync(join(root, name, "task.toml"), "")
      writeFileSync(join(root, name, "instruction.md"), `do ${name}`)
      writeFileSync(join(root, name, "tests", "test.sh"), "")
    }
    mkdirSync(join(root, "not-a-task"))
    return root
  }

  it("lists task directories in name order, or one task directory itself", () => {
    const root = tasksDir()
    const dirs = Either.getOrThrow(listHarborTaskDirs(root))
    expect(dirs.map((dir) => dir.slice(root.length + 1))).toEqual(["a-task", "b-task"])
    expect(Either.getOrThrow(listHarborTaskDirs(join(root, "b-task")))).toEqual([join(root, "b-task")])
  })

  it("refuses a directory without tasks, and a task without its verifier", () =>
    Effect.gen(function* () {
      const root = tasksDir()
      const empty = Either.getLeft(listHarborTaskDirs(join(root, "not-a-task")))
      expect(empty._tag === "Some" && empty.value.message).toBe(
        `tasks: ${join(root, "not-a-task")} holds no task directory (a directory with a task.toml)`,
      )
      writeFileSync(join(root, "a-task", "tests", "test.sh"), "")
      const task = yield* loadHarborTask(join(root, "a-task"))
      expect(task.id).toBe("a-task")
      expect(task.instruction).toBe("do a-task")
    }).pipe(Effect.runPromise))
})

describe("rewards", () => {
  it("reads reward.txt first, then reward.json's reward, else the mean of its numbers", () => {
    expect(readReward("0.75\n", '{"reward": 1}')?.reward).toBe(0.75)
    expect(readReward(null, '{"reward": 1, "extra": 0}')?.reward).toBe(1)
    expect(readReward(null, '{"a": 1, "b": 0, "note": "x"}')?.reward).toBe(0.5)
    expect(readReward(null, null)).toBeNull()
    expect(readReward("not a number", null)).toBeNull()
    expect(readReward(null, '{"note": "x"}')).toBeNull()
  })
})
