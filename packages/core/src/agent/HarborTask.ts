import { existsSync, readdirSync, statSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { basename, join, resolve } from "node:path"
import { Effect, Either, Schema } from "effect"
import { parse as parseToml, TomlError } from "smol-toml"
import { formatParseIssues, renderPath } from "../internal/formatIssues.js"

/**
 * A Harbor / Terminal-Bench 2.0 task directory: `instruction.md`, `task.toml`, `environment/Dockerfile`,
 * `tests/test.sh` (writes `/logs/verifier/reward.txt` or `reward.json`), `solution/solve.sh` (the oracle).
 * Defaults are Harbor's (`TaskConfig`): 600 s for the build; 1 cpu, 2048 MB of memory, 10240 MB of storage; the
 * agent's and the verifier's 600 s are applied in `AgentLimits`, after the run's own settings. Keys proctor does not read (`[metadata]`, newer Harbor keys) are kept, not refused.
 */

const PositiveSeconds = Schema.Number.pipe(
  Schema.filter((n) => Number.isFinite(n) && n > 0, { message: () => "expected a positive number of seconds" }),
)
const Positive = (what: string) =>
  Schema.Number.pipe(Schema.filter((n) => Number.isFinite(n) && n > 0, { message: () => `expected ${what}` }))

const withDefault = <S extends Schema.Schema.Any>(schema: S, value: () => Schema.Schema.Type<S>) =>
  Schema.optionalWith(schema, { exact: true, default: value })

export const HarborTaskConfig = Schema.Struct({
  version: Schema.optional(Schema.String),
  metadata: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  // Timeouts stay absent when the task sets none: the run's `agent_timeout`/`verifier_timeout` apply, then
  // Harbor's 600 s (see AgentLimits).
  verifier: withDefault(
    Schema.Struct({
      timeout_sec: Schema.optionalWith(PositiveSeconds, { exact: true }),
      env: withDefault(Schema.Record({ key: Schema.String, value: Schema.String }), () => ({})),
    }),
    () => ({ env: {} }),
  ),
  agent: withDefault(Schema.Struct({ timeout_sec: Schema.optionalWith(PositiveSeconds, { exact: true }) }), () => ({})),
  environment: withDefault(
    Schema.Struct({
      build_timeout_sec: withDefault(PositiveSeconds, () => 600),
      /** A prebuilt image to use instead of `environment/Dockerfile`. */
      docker_image: Schema.optionalWith(Schema.String, { exact: true }),
      cpus: withDefault(Positive("a positive number of cpus"), () => 1),
      memory_mb: withDefault(Positive("a positive number of MB"), () => 2048),
      storage_mb: withDefault(Positive("a positive number of MB"), () => 10240),
    }),
    () => ({ build_timeout_sec: 600, cpus: 1, memory_mb: 2048, storage_mb: 10240 }),
  ),
})
export type HarborTaskConfig = typeof HarborTaskConfig.Type

/** A task directory that cannot be run: the message names the file and, for `task.toml`, the key. */
export class HarborTaskError extends Schema.TaggedError<HarborTaskError>()("HarborTaskError", {
  reason: Schema.Literal("NotFound", "InvalidConfig", "MissingFile"),
  message: Schema.String,
}) {}

export interface HarborTask {
  /** The task directory's name: the result's `task_id`. */
  readonly id: string
  readonly dir: string
  readonly instruction: string
  readonly config: HarborTaskConfig
}

const decodeConfig = Schema.decodeUnknownEither(HarborTaskConfig, { errors: "all" })

/** Decodes a `task.toml`'s text; every error line is `FILE: key.path: what was expected, got what`. */
export const parseHarborTaskToml = (text: string, file: string): Either.Either<HarborTaskConfig, HarborTaskError> => {
  let document: unknown
  try {
    document = parseToml(text)
  } catch (error) {
    const where = error instanceof TomlError ? `${file}:${error.line}:${error.column}` : file
    const what = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error)
    return Either.left(
      new HarborTaskError({
        reason: "InvalidConfig",
        message: `${where}: not valid TOML: ${what.replace(/^Invalid TOML document: /, "")}`,
      }),
    )
  }
  return Either.mapLeft(
    decodeConfig(document),
    (error) =>
      new HarborTaskError({
        reason: "InvalidConfig",
        message: formatParseIssues(error, (path) => `${file}: ${renderPath("", path)}`),
      }),
  )
}

const isTaskDir = (dir: string) => existsSync(join(dir, "task.toml"))

const readText = (file: string) =>
  Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: () => new HarborTaskError({ reason: "MissingFile", message: `${file} cannot be read` }),
  })

/** One task directory, checked: its `task.toml` decodes and its instruction and tests are there. */
export const loadHarborTask = Effect.fn("HarborTask.load")(function* (dir: string) {
  const tomlFile = join(dir, "task.toml")
  const config = yield* Effect.flatMap(readText(tomlFile), (text) => parseHarborTaskToml(text, tomlFile))
  const instruction = yield* readText(join(dir, "instruction.md"))
  const testScript = join(dir, "tests", "test.sh")
  if (!existsSync(testScript)) {
    return yield* new HarborTaskError({ reason: "MissingFile", message: `${testScript} is missing (the verifier)` })
  }
  return { id: basename(resolve(dir)), dir: resolve(dir), instruction, config } satisfies HarborTask
})

/**
 * The task directories of `path`, sorted by name (a task's seed is its index), or `path` itself when it is one.
 * Only the names are read here; `loadHarborTask` reads each.
 */
export const listHarborTaskDirs = (path: string): Either.Either<ReadonlyArray<string>, HarborTaskError> => {
  if (!existsSync(path) || !statSync(path).isDirectory()) {
    return Either.left(new HarborTaskError({ reason: "NotFound", message: `tasks: ${path} is not a directory` }))
  }
  if (isTaskDir(path)) return Either.right([resolve(path)])
  const dirs = readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && isTaskDir(join(path, entry.name)))
    .map((entry) => entry.name)
    .sort()
    .map((name) => resolve(path, name))
  return dirs.length === 0
    ? Either.left(
        new HarborTaskError({
          reason: "NotFound",
          message: `tasks: ${path} holds no task directory (a directory with a task.toml)`,
        }),
      )
    : Either.right(dirs)
}

/** Every task of `path`, loaded and checked before anything runs. */
export const loadHarborTasks = Effect.fn("HarborTask.loadAll")(function* (path: string) {
  const dirs = yield* listHarborTaskDirs(path)
  return yield* Effect.forEach(dirs, loadHarborTask)
})
