import { Effect } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import type { EvalResult } from "../result/EvalResult.js"

export type TaskId = string | number

/** The tasks of an `evaluate()` run, each under the seed the runner and the journal know it by. */
export interface TaskTable<T> {
  readonly seeds: ReadonlyArray<number>
  readonly taskOf: (seed: number) => T
  readonly idOf: (seed: number) => TaskId
}

const invalid = (message: string) => new ConfigError({ reason: "InvalidValue", message: `evaluate: ${message}` })

const idOfTask = (task: unknown, index: number): TaskId | ConfigError => {
  if (typeof task !== "object" || task === null || Array.isArray(task)) {
    return invalid(`tasks[${index}]: expected an object with an id, got ${JSON.stringify(task) ?? String(task)}`)
  }
  const id = (task as { readonly id?: unknown }).id
  if ((typeof id === "string" && id !== "") || (typeof id === "number" && Number.isFinite(id))) return id
  return invalid(`tasks[${index}].id: expected a non-empty string or a finite number, got ${JSON.stringify(id)}`)
}

/** Reads every task (an async iterable is drained first: the plan needs its size) and checks the ids. */
export const collectTasks = <T>(tasks: Iterable<T> | AsyncIterable<T>) =>
  Effect.gen(function* () {
    const all: Array<T> = yield* Effect.tryPromise({
      // Not Array.fromAsync: Node 20 has none.
      try: async () => {
        const all: Array<T> = []
        for await (const task of tasks) all.push(task)
        return all
      },
      catch: (cause) => invalid(`reading tasks failed: ${cause instanceof Error ? cause.message : String(cause)}`),
    })
    const firstIndex = new Map<TaskId, number>()
    for (const [index, task] of all.entries()) {
      const id = idOfTask(task, index)
      if (id instanceof ConfigError) return yield* id
      const earlier = firstIndex.get(id)
      if (earlier !== undefined) {
        return yield* invalid(`tasks[${index}].id: ${JSON.stringify(id)} is also the id of tasks[${earlier}]`)
      }
      firstIndex.set(id, index)
    }
    if (all.length === 0) return yield* invalid("tasks: expected at least one task")
    return all
  })

/**
 * Gives each task its seed. A task an earlier session of the run stored results for keeps that session's
 * seed (found by its id in the journal), so a resume runs exactly its missing attempts even if the tasks
 * come in another order; any other task gets its position when that seed is free. Seeds are never reused
 * for another id, because the journal keys results by (seed, attempt).
 */
export const assignSeeds = <T>(
  tasks: ReadonlyArray<T>,
  stored: Iterable<EvalResult>,
  runDir: string,
): Effect.Effect<TaskTable<T>, ConfigError> =>
  Effect.gen(function* () {
    const seedOfId = new Map<TaskId, number>()
    const usedSeeds = new Set<number>()
    for (const result of stored) {
      if (result.task_id === undefined) {
        return yield* invalid(`${runDir} holds results without a task id: it is not a run of evaluate()`)
      }
      seedOfId.set(result.task_id, result.seed)
      usedSeeds.add(result.seed)
    }
    let nextFree = 0
    const bySeed = new Map<number, T>()
    const idBySeed = new Map<number, TaskId>()
    const seeds = tasks.map((task, index) => {
      const id = (task as { readonly id: TaskId }).id
      let seed = seedOfId.get(id)
      if (seed === undefined) {
        if (usedSeeds.has(index)) {
          while (usedSeeds.has(nextFree)) nextFree++
          seed = nextFree
        } else seed = index
        usedSeeds.add(seed)
      }
      bySeed.set(seed, task)
      idBySeed.set(seed, id)
      return seed
    })
    return { seeds, taskOf: (seed) => bySeed.get(seed)!, idOf: (seed) => idBySeed.get(seed)! }
  })
