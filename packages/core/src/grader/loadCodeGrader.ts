import { createRequire } from "node:module"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { Effect } from "effect"
import { isRecord } from "../internal/isRecord.js"
import { GraderError, type GraderInput, type GraderVerdict } from "./Grader.js"
import type { CodeGrader } from "./GraderSpec.js"
import { graderName } from "./GraderSpec.js"

/** A code grader, loaded: the user's function, its answer read as a verdict. */
export type LoadedCodeGrader = (input: GraderInput) => Effect.Effect<GraderVerdict, GraderError>

const TYPESCRIPT = /\.(c|m)?tsx?$/

/**
 * tsx's `tsImport`, as evaluate() scripts are run (the guide has users `npm i -D tsx`): found from the grader's own
 * directory first (the user's project), then from proctor's. Node 20 runs no TypeScript by itself.
 */
const importTypeScript = async (file: string): Promise<Record<string, unknown>> => {
  for (const from of [file, import.meta.url]) {
    let api: string
    try {
      // require.resolve finds the CommonJS entry, which cannot be import()ed (it loads its ES twin by a wrong
      // relative path): the ES entry sits beside it.
      api = createRequire(from)
        .resolve("tsx/esm/api")
        .replace(/\.cjs$/, ".mjs")
    } catch {
      continue
    }
    const { tsImport } = (await import(pathToFileURL(api).href)) as {
      tsImport: (specifier: string, parent: string) => Promise<Record<string, unknown>>
    }
    return tsImport(pathToFileURL(file).href, import.meta.url)
  }
  throw new Error("a TypeScript grader needs tsx in your project (npm i -D tsx), or compile it to .js")
}

/** A function's answer as a verdict: a number or boolean, or `{ score, passed?, reason? }`; scores in [0, 1]. */
export const verdictOf = (name: string, value: unknown): GraderVerdict | GraderError => {
  const bad = (message: string) => new GraderError({ reason: "BadResult", grader: name, message })
  if (typeof value === "boolean") return { score: value ? 1 : 0, passed: value }
  const record = isRecord(value) ? value : { score: value }
  const score = record.score
  if (typeof score !== "number" || !Number.isFinite(score) || score < 0 || score > 1) {
    return bad(`expected a score from 0 to 1 (or a boolean), got ${JSON.stringify(score) ?? String(score)}`)
  }
  const passed = typeof record.passed === "boolean" ? record.passed : score >= 1
  const reason = typeof record.reason === "string" ? record.reason : undefined
  return {
    score,
    passed,
    ...(reason === undefined ? {} : { reason }),
    ...(record.details === undefined ? {} : { details: record.details }),
  }
}

/** Imports a code grader's module (TypeScript through tsx) and picks its export: once per run. */
export const loadCodeGrader = (spec: typeof CodeGrader.Type): Effect.Effect<LoadedCodeGrader, GraderError> => {
  const name = graderName(spec)
  const file = resolve(spec.file)
  const exported = spec.export ?? "default"
  return Effect.tryPromise({
    try: () => (TYPESCRIPT.test(file) ? importTypeScript(file) : import(pathToFileURL(file).href)),
    catch: (error) =>
      new GraderError({
        reason: "Unloadable",
        grader: name,
        message: `${spec.file}: ${(error as Error).message?.split("\n")[0] ?? String(error)}`,
        cause: error,
      }),
  }).pipe(
    Effect.flatMap((module: Record<string, unknown>) => {
      // A CommonJS module (or tsx's interop) may hold its exports under `default`.
      const candidate =
        module[exported] ??
        (isRecord(module.default) ? (module.default as Record<string, unknown>)[exported] : undefined)
      if (typeof candidate !== "function") {
        return Effect.fail(
          new GraderError({
            reason: "Unloadable",
            grader: name,
            message: `${spec.file} exports no function ${JSON.stringify(exported)}`,
          }),
        )
      }
      const grade = candidate as (input: GraderInput) => unknown
      return Effect.succeed((input: GraderInput) =>
        Effect.tryPromise({
          try: async () => grade(input),
          catch: (error) =>
            new GraderError({
              reason: "Threw",
              grader: name,
              message: `threw ${error instanceof Error ? error.message : String(error)}`,
              cause: error,
            }),
        }).pipe(
          Effect.flatMap((value) => {
            const judged = verdictOf(name, value)
            return judged instanceof GraderError ? Effect.fail(judged) : Effect.succeed(judged)
          }),
        ),
      )
    }),
  )
}
