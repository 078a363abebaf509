import { checkTaskApp, endpointFromFlags, KEY_CHECK, loadEnv, modelKeyLine, TaskAppClient } from "@proctor/core"
import { Effect, Redacted } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { TaskAppCheckOptions } from "../program/taskApp.js"

const MARK = { pass: "ok  ", warn: "warn", fail: "FAIL", skip: "skip" } as const

export const taskAppCheckCommand = (url: string, options: TaskAppCheckOptions, io: Io): Effect.Effect<ExitCode> =>
  Effect.gen(function* () {
    if (!URL.canParse(url)) {
      io.stderr.write(`proctor task-app check: "${url}" is not a URL\n`)
      return ExitCode.Usage
    }
    const { seed, timeout: timeoutSeconds } = options
    const env = yield* loadEnv({ envFile: options.envFile, env: io.env })
    const endpoint = yield* endpointFromFlags(
      {
        ...(options.inferenceUrl === undefined ? {} : { inference_url: options.inferenceUrl }),
        ...(options.provider === undefined ? {} : { provider: options.provider }),
      },
      env,
    )
    const key = options.apiKey ?? env.ENVIRONMENT_API_KEY
    const apiKey = key === undefined || key === "" ? null : Redacted.make(key)
    const timeoutMs = timeoutSeconds * 1000
    if (endpoint !== null) {
      const policy = { provider: endpoint.provider, policy_config: { inference_url: endpoint.inferenceUrl } }
      io.stdout.write(`${modelKeyLine(policy, env, null)}\n`)
    }
    const findings = yield* checkTaskApp({
      url,
      apiKey,
      seed,
      model: options.model ?? null,
      inferenceUrl: endpoint?.inferenceUrl ?? null,
      timeoutMs,
    }).pipe(Effect.provide(TaskAppClient.layer({ baseUrl: url, apiKey, timeoutMs, connections: 2 })))
    for (const f of findings) io.stdout.write(`${MARK[f.status]}  ${f.check}: ${f.detail}\n`)
    if (findings.some((f) => f.check === KEY_CHECK && f.status === "fail")) {
      io.stdout.write(`\nnot checked: ${url} did not accept the task-app key\n`)
      return ExitCode.Usage
    }
    const failed = findings.filter((f) => f.status === "fail").length
    const warned = findings.filter((f) => f.status === "warn").length
    const skipped = findings.filter((f) => f.status === "skip").map((f) => f.check)
    const notes = [
      ...(warned > 0 ? [`${warned} warning${warned > 1 ? "s" : ""}`] : []),
      ...(skipped.length > 0 ? [`not checked: ${skipped.join(", ")}`] : []),
    ]
    io.stdout.write(
      failed === 0
        ? `\n${url} follows the task-app contract${notes.length > 0 ? ` (${notes.join("; ")})` : ""}\n`
        : `\n${failed} deviation${failed > 1 ? "s" : ""} from the task-app contract\n`,
    )
    return failed === 0 ? ExitCode.Ok : ExitCode.Failed
  }).pipe(
    Effect.catchTag("ConfigError", (error) =>
      Effect.sync(() => {
        io.stderr.write(`proctor task-app check: ${error.message}\n`)
        return ExitCode.Usage
      }),
    ),
  )
