import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import {
  ErrorKind,
  EvalTomlSection,
  errorKindDocs,
  ModelCallsFailedReason,
  modelCallsFailure,
  SolverError,
  TaskAppError,
  TaskAppErrorReason,
} from "@proctor/core"
import { Either, Schema } from "effect"
import { createProgram, ExitCode, evalFlags, exitCodeMeanings } from "proctor"
import { parse } from "smol-toml"
import { describe, expect, it } from "vitest"
import { cliCommands, flagsOf } from "../src/cliReference.js"
import { configKeys } from "../src/configReference.js"
import { generatedPages } from "../src/generatedPages.js"
import { graderReference } from "../src/graderReference.js"

const repo = new URL("../../../", import.meta.url)

/** A file as committed (git's index: HEAD plus whatever is staged), or null when git has no such file. */
const committed = (path: string): string | null => {
  try {
    return execFileSync("git", ["show", `:${path}`], {
      cwd: repo,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
  } catch {
    return null
  }
}

describe("generated references", () => {
  for (const { path, render } of generatedPages()) {
    it(`apps/docs/pages/${path} as committed is what the code generates now`, () => {
      const file = `apps/docs/pages/${path}`
      expect(
        committed(file),
        `${file} is stale: run \`pnpm docs:generate\` and commit the page (git add ${file})`,
      ).toBe(render())
    })
  }
})

describe("config keys' docs (configKeyDoc annotations in EvalRunConfig.ts)", () => {
  const keys = configKeys()

  it("cover every key of [eval] and [eval.policy_config]", () => {
    const policyKeys = keys.filter((key) => key.path.startsWith("policy_config.")).map((key) => key.path)
    expect(keys.filter((key) => !key.path.includes(".")).map((key) => key.path)).toEqual(
      Object.keys(EvalTomlSection.fields),
    )
    expect(policyKeys).toEqual(
      expect.arrayContaining(["policy_config.inference_url", "policy_config.model", "policy_config.api_key"]),
    )
    for (const key of keys) expect(key.doc.description.length, key.path).toBeGreaterThan(10)
  })

  it("give examples that decode", () => {
    for (const key of keys) {
      const [table, name] = key.path.startsWith("policy_config.")
        ? ["[eval.policy_config]", key.path.slice("policy_config.".length)]
        : key.path.startsWith("judge.")
          ? ["[eval.judge]", key.path.slice("judge.".length)]
          : ["[eval]", key.path]
      // A judge table needs its model: the other keys' examples are tried next to one.
      const required = table === "[eval.judge]" && name !== "model" ? 'model = "m"\n' : ""
      const document = parse(`${table}\n${required}${name} = ${key.doc.example}\n`) as { eval: unknown }
      const decoded = Schema.decodeUnknownEither(EvalTomlSection)(document.eval)
      expect(Either.isRight(decoded), `${key.path} = ${key.doc.example}`).toBe(true)
    }
  })

  it("name flags that `proctor eval` has, and every flag that sets a key names it", () => {
    const evalCommand = createProgram(async () => {}).commands.find((command) => command.name() === "eval")!
    const flags = new Set([...evalCommand.options.map((option) => option.long), "APP_ID"])
    const named = keys.flatMap((key) => (key.doc.flag === undefined ? [] : [key.doc.flag]))
    expect(named.filter((flag) => !flags.has(flag))).toEqual([])
    const setting = Object.values(evalFlags).flatMap((flag) => ("configKey" in flag ? [flag.spec.split(" ")[0]!] : []))
    expect([...setting, "APP_ID"].filter((flag) => !named.includes(flag))).toEqual([])
    const settings = [...Object.keys(EvalTomlSection.fields), "inference_url"]
    const keysSet = Object.values(evalFlags).flatMap((flag) => ("configKey" in flag ? [String(flag.configKey)] : []))
    expect(keysSet.filter((key) => !settings.includes(key))).toEqual([])
  })
})

describe("key types in the references", () => {
  it("name every key's type, through effect's refinements and their descriptions (was `value` for a described string)", () => {
    const types = (page: string) =>
      [...page.matchAll(/^\| `(\w+)` \| ([^|]+) \|/gm)].map(([, key, type]) => [key, type])
    const graders = types(graderReference())
    expect(graders.filter(([, type]) => type!.includes("value"))).toEqual([])
    for (const key of ["rubric", "instructions", "criteria", "other", "file", "name"])
      expect(graders.find(([name]) => name === key)?.[1], key).toBe("non-empty string")
    const configTypes = configKeys().map((key) => [key.path, key.type])
    expect(configTypes.filter(([, type]) => /\bvalue\b/.test(type!))).toEqual([])
    expect(Object.fromEntries(configTypes)).toMatchObject({
      prompt: "non-empty string",
      concurrency: "integer > 0, ≤ 10000",
      "judge.model": "non-empty string",
    })
  })
})

describe("error kinds' docs (ErrorKindDoc.ts)", () => {
  it("say a kind is retried exactly when its errors are retryable", () => {
    const taskAppErrors = TaskAppErrorReason.literals.flatMap((reason) =>
      reason === "HttpStatus"
        ? [500, 404].map((status) => new TaskAppError({ reason, status, endpoint: "/rollout", message: "" }))
        : [new TaskAppError({ reason, endpoint: "/rollout", message: "" })],
    )
    const modelFailures = ModelCallsFailedReason.literals.map((reason) => {
      const status = { Unauthorized: 401, RateLimited: 429, Unavailable: 503, Rejected: 400 }[reason]
      return modelCallsFailure([{ outcome: "error", status, error: "x" } as never])!
    })
    const solverErrors = [new SolverError({ reason: "Timeout", retryable: true, message: "" })]
    for (const error of [...taskAppErrors, ...modelFailures, ...solverErrors]) {
      expect(errorKindDocs[error.kind].retried, `${error._tag} ${error.kind}`).toBe(error.retryable ? "yes" : "no")
    }
    expect(Object.keys(errorKindDocs).sort()).toEqual([...ErrorKind.literals].sort())
  })
})

describe("exit codes' docs", () => {
  it("explain every exit code", () => {
    expect(Object.keys(exitCodeMeanings).map(Number).sort()).toEqual(Object.values(ExitCode).sort())
  })
})

describe("the reference deployment (deploy/)", () => {
  // Every proctor invocation there is an array starting with its command: ["serve", "--flag", …].
  const invocations = () =>
    readdirSync(new URL("deploy/kubernetes/", repo))
      .map((file) => `deploy/kubernetes/${file}`)
      .concat("deploy/compose.yaml")
      .flatMap((file) =>
        [...readFileSync(new URL(file, repo), "utf8").matchAll(/\[\s*"(serve|worker)"([^\]]*)\]/g)].map((match) => ({
          file,
          command: `proctor ${match[1]}`,
          args: match[2]!,
        })),
      )

  it("uses only commands and flags proctor has", () => {
    const commands = new Map(cliCommands().map(({ name, command }) => [name, new Set(flagsOf(command))]))
    const found = invocations()
    expect(found.map((i) => i.command)).toEqual(expect.arrayContaining(["proctor serve", "proctor worker"]))
    const unknown = found.flatMap(({ file, command, args }) => {
      const flags = commands.get(command)
      if (flags === undefined) return [`${file}: ${command}`]
      return [...args.matchAll(/"(--[a-z-]+)"/g)]
        .filter((m) => !flags.has(m[1]!))
        .map((m) => `${file}: ${command} ${m[1]}`)
    })
    expect(unknown).toEqual([])
  })
})
