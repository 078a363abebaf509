import type { ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import {
  Children,
  type CommandOutcome,
  describeExit,
  runToExit,
  StartupError,
  signalGroup,
  startServer,
} from "./children.js"
import { evalToml, writePrivateFile } from "./evalToml.js"
import { type EvalOutcome, formatRecap, readSummary, type SummaryView } from "./recap.js"
import { scrubSecret } from "./scrub.js"

const SEEDS = { from: 0, to: 249 }
const CONCURRENCY = 16
const APPS = ["math", "intents"] as const
type AppName = (typeof APPS)[number]
/** Agent evals on the example Harbor tasks, on the local runtime (no isolation, no Docker: quick and offline). */
const AGENTS = ["oracle", "builtin"] as const
const AGENT_TASKS = fileURLToPath(new URL("../../tasks", import.meta.url))
const AGENT_MAX_TURNS = 5

const CLI_EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const

class DemoError extends Error {
  override readonly name = "DemoError"
}

const say = (line: string) => process.stdout.write(`${line}\n`)
const warn = (line: string) => process.stderr.write(`${line}\n`)

const startupTimeoutMs = (): number => {
  const raw = process.env.DEMO_STARTUP_TIMEOUT_S
  const seconds = raw === undefined || raw === "" ? 20 : Number(raw)
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new DemoError(`DEMO_STARTUP_TIMEOUT_S: expected a positive number of seconds, got "${raw}"`)
  }
  return seconds * 1000
}

/** The built `main.js` beside a workspace example's `dist/index.js`. */
const exampleMain = (pkg: string): string => {
  let path: string | undefined
  try {
    path = fileURLToPath(new URL("./main.js", import.meta.resolve(pkg)))
  } catch {
    path = undefined
  }
  if (path === undefined || !existsSync(path)) {
    throw new DemoError(`${pkg} is not built (no dist/main.js): run \`pnpm run build\` first, or \`pnpm demo\``)
  }
  return path
}

/** The CLI exactly as users run it: its built binary, spawned, not imported. */
const cliBin = (): string => {
  const path = fileURLToPath(new URL("../../../packages/cli/dist/bin.cjs", import.meta.url))
  if (!existsSync(path)) throw new DemoError(`the proctor CLI is not built (${path}): run \`pnpm run build\` first`)
  return path
}

/** The local baseline's own price list, so the demo's summaries show cost. */
const BASELINE_PRICING = fileURLToPath(new URL("../../baseline-model/pricing.json", import.meta.url))

/** The model under evaluation: the local baseline, or an OpenAI-compatible one when OPENAI_API_KEY is set. */
type ModelChoice =
  | { readonly kind: "baseline"; readonly name: string }
  | { readonly kind: "openai"; readonly name: string; readonly baseUrl: string; readonly apiKey: string }

const chooseModel = (env: NodeJS.ProcessEnv): ModelChoice => {
  const apiKey = env.OPENAI_API_KEY?.trim()
  if (apiKey === undefined || apiKey === "") return { kind: "baseline", name: "baseline" }
  const baseUrl = (env.OPENAI_BASE_URL?.trim() || "https://api.openai.com/v1").replace(/\/+$/, "")
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new DemoError(`OPENAI_BASE_URL: expected an http(s) URL, got "${baseUrl}"`)
  }
  return { kind: "openai", name: env.OPENAI_MODEL?.trim() || "gpt-4o-mini", baseUrl, apiKey }
}

const timestamp = (d: Date): string => {
  const p = (n: number) => String(n).padStart(2, "0")
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`
}

/** `runs/demo-<app>-<timestamp>`, with a suffix should a demo started in the same second have taken it. */
const freshRunDir = (app: string, stamp: string): string => {
  const base = join("runs", `demo-${app}-${stamp}`)
  let dir = base
  for (let n = 2; existsSync(dir); n++) dir = `${base}-${n}`
  return dir
}

/**
 * Why an eval that was not interrupted counts as not run, or undefined when it ran. A low score is not a
 * failure; results the CLI calls invalid (rollouts missing, more than 5% errored) are.
 */
const failureOf = (exit: CommandOutcome, summary: SummaryView | undefined, outputJson: string): string | undefined => {
  if (exit.code === CLI_EXIT.ok) return summary === undefined ? `no summary in ${outputJson}` : undefined
  if (exit.code === CLI_EXIT.failed && summary !== undefined && !summary.is_valid) {
    return `results not valid: ${summary.invalid_reasons.join("; ")}`
  }
  return `proctor eval stopped with ${describeExit(exit)}`
}

/** The environment every child starts from: the user's, minus the secrets and settings the demo owns. */
const baseEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env }
  for (const key of ["OPENAI_API_KEY", "INFERENCE_API_KEY", "ENVIRONMENT_API_KEY", "PORT"]) delete env[key]
  return env
}

const main = async (): Promise<number> => {
  const startedAt = performance.now()
  const model = chooseModel(process.env)
  const timeoutMs = startupTimeoutMs()
  const cli = cliBin()
  const scripts = {
    baseline: exampleMain("@proctor/example-baseline-model"),
    math: exampleMain("@proctor/example-math"),
    intents: exampleMain("@proctor/example-intents"),
  }

  // A fresh key for this demo only: the task apps require it, the CLI presents it.
  const environmentApiKey = `demo-${randomBytes(16).toString("hex")}`
  const children = new Children()
  const abort = new AbortController()
  const tempDir = mkdtempSync(join(tmpdir(), "proctor-demo-"))
  let runningEval: ChildProcess | undefined
  let signals = 0
  const runDirs: string[] = []

  const removeTemp = () => rmSync(tempDir, { recursive: true, force: true })
  // proctor leaves secret-looking policy_config keys out of run directories; should a copy of the model key
  // reach one anyway (a trace, an error message), it is taken out here, whatever way the demo ends.
  const scrubKey = () => {
    if (model.kind === "openai") for (const dir of runDirs) scrubSecret(dir, model.apiKey)
  }
  const onExit = () => {
    children.killAllNow()
    removeTemp()
    scrubKey()
  }
  // Ctrl-C reaches the demo alone (children have process groups of their own). During an eval the first
  // two go to the CLI, which stops taking work, then cancels what is in flight, keeps its results and says
  // how to resume; anything else (or a third Ctrl-C) stops the demo now.
  const onSignal = (signal: NodeJS.Signals) => {
    signals++
    if (runningEval !== undefined && signals <= 2) {
      if (signals === 1) warn(`\n${signal}: stopping the eval (again to cancel rollouts in flight)`)
      signalGroup(runningEval, "SIGINT")
    } else {
      abort.abort()
      if (signals > 2) {
        onExit()
        process.exit(130)
      }
    }
  }
  const signalNames = ["SIGINT", "SIGTERM", "SIGHUP"] as const
  for (const signal of signalNames) process.on(signal, onSignal)
  process.on("exit", onExit)

  const outcomes: EvalOutcome[] = []
  try {
    const env = baseEnv()
    const serverEnv = { ...env, ENVIRONMENT_API_KEY: environmentApiKey, PORT: "0" }
    const start = (name: string, script: string, extraEnv: NodeJS.ProcessEnv = {}) =>
      startServer(children, { name, script, env: { ...serverEnv, ...extraEnv }, timeoutMs, signal: abort.signal })

    say("proctor demo: starting the task apps and the model on loopback…")
    const started = await Promise.allSettled([
      model.kind === "baseline" ? start("baseline model", scripts.baseline) : Promise.resolve(undefined),
      start("math task app", scripts.math),
      // The intents app sends INFERENCE_API_KEY to the model; it does not read policy_config.api_key.
      start("intents task app", scripts.intents, model.kind === "openai" ? { INFERENCE_API_KEY: model.apiKey } : {}),
    ])
    const failures = started.flatMap((s) => (s.status === "rejected" ? [s.reason as unknown] : []))
    if (failures.length > 0) {
      if (abort.signal.aborted) return CLI_EXIT.interrupted
      const reasons = failures.map((f) => `  - ${f instanceof Error ? f.message : String(f)}`)
      throw new DemoError(`could not start the servers:\n${reasons.join("\n")}`)
    }
    const [baseline, math, intents] = started.map((s) => (s.status === "fulfilled" ? s.value : undefined))
    const urls: Record<AppName, string> = { math: math!.url, intents: intents!.url }
    for (const server of [baseline, math, intents]) {
      if (server === undefined) continue
      say(`  ${server.name.padEnd(17)} ${server.url}`)
      server.child.once("exit", (code, signal) => {
        if (!abort.signal.aborted) warn(`[${server.name}] exited unexpectedly (${describeExit({ code, signal })})`)
      })
    }

    const inferenceUrl = model.kind === "baseline" ? baseline!.url : model.baseUrl
    const modelLabel =
      model.kind === "baseline"
        ? `baseline (the local heuristic policy at ${inferenceUrl})`
        : `${model.name} at ${model.baseUrl} (key from OPENAI_API_KEY)`
    say(`  model             ${modelLabel}`)

    const stamp = timestamp(new Date())
    const seeds = `${SEEDS.from}-${SEEDS.to}`
    for (const app of APPS) {
      if (abort.signal.aborted || signals > 0) break
      const runDir = freshRunDir(app, stamp)
      runDirs.push(runDir)
      const outputJson = join(runDir, "results.json")
      const config = join(tempDir, `${app}.eval.toml`)
      writePrivateFile(
        config,
        evalToml({
          app_id: app,
          url: urls[app],
          seeds,
          model: model.name,
          concurrency: CONCURRENCY,
          policy_config: {
            inference_url: inferenceUrl,
            temperature: 0,
            ...(model.kind === "openai" ? { api_key: model.apiKey } : {}),
          },
        }),
      )
      say(`\n━━ ${app}: seeds ${seeds} · model ${model.name} · concurrency ${CONCURRENCY} ━━`)
      const t0 = performance.now()
      const child = children.spawn({
        name: `proctor eval ${app}`,
        script: cli,
        args: [
          "eval",
          "--config",
          config,
          "--run-dir",
          runDir,
          "--output-json",
          outputJson,
          // The baseline has a price of its own so the demo shows cost; hosted models use the built-in table.
          ...(model.kind === "baseline" ? ["--pricing", BASELINE_PRICING] : []),
        ],
        env: { ...env, ENVIRONMENT_API_KEY: environmentApiKey },
        output: "inherit",
      })
      runningEval = child
      const exit = await runToExit(child).finally(() => {
        runningEval = undefined
      })
      const wallSeconds = (performance.now() - t0) / 1000
      scrubKey()
      const summary = readSummary(outputJson)
      const interrupted = exit.code === CLI_EXIT.interrupted || (signals > 0 && exit.code !== CLI_EXIT.ok)
      const failure = interrupted ? undefined : failureOf(exit, summary, outputJson)
      outcomes.push({ app, kind: "task-app", usesModel: true, runDir, wallSeconds, failure, interrupted, summary })
    }

    // The agent evals: the oracle (scores 1.0 on every task), then the builtin agent on the model.
    for (const agent of AGENTS) {
      if (abort.signal.aborted || signals > 0) break
      if (agent === "builtin" && model.kind !== "baseline") {
        say("\n━━ agents: the builtin agent runs on the baseline model only in the demo ━━")
        continue
      }
      const name = `agents-${agent}`
      const runDir = freshRunDir(name, stamp)
      runDirs.push(runDir)
      const outputJson = join(runDir, "results.json")
      say(`\n━━ ${name}: the example Harbor tasks · agent ${agent} · sandbox local (no isolation) ━━`)
      const t0 = performance.now()
      const modelArgs =
        agent === "builtin"
          ? ["--model", model.name, "--inference-url", inferenceUrl, "--max-turns", String(AGENT_MAX_TURNS)]
          : []
      const child = children.spawn({
        name: `proctor eval ${name}`,
        script: cli,
        args: [
          "eval",
          "--tasks",
          AGENT_TASKS,
          "--agent",
          agent,
          "--sandbox",
          "local",
          ...modelArgs,
          "--run-dir",
          runDir,
          "--output-json",
          outputJson,
          ...(agent === "builtin" ? ["--pricing", BASELINE_PRICING] : []),
        ],
        env,
        output: "inherit",
      })
      runningEval = child
      const exit = await runToExit(child).finally(() => {
        runningEval = undefined
      })
      const summary = readSummary(outputJson)
      const interrupted = exit.code === CLI_EXIT.interrupted || (signals > 0 && exit.code !== CLI_EXIT.ok)
      const failure = interrupted ? undefined : failureOf(exit, summary, outputJson)
      outcomes.push({
        app: name,
        kind: "agents",
        usesModel: agent === "builtin",
        runDir,
        wallSeconds: (performance.now() - t0) / 1000,
        failure,
        interrupted,
        summary,
      })
    }

    process.stdout.write(
      formatRecap({
        model: modelLabel,
        outcomes,
        totalSeconds: (performance.now() - startedAt) / 1000,
        keyInPolicyConfig: model.kind === "openai",
      }),
    )
    if (outcomes.some((o) => o.interrupted) || signals > 0) return CLI_EXIT.interrupted
    const planned = APPS.length + (model.kind === "baseline" ? AGENTS.length : AGENTS.length - 1)
    return outcomes.length === planned && outcomes.every((o) => o.failure === undefined) ? CLI_EXIT.ok : CLI_EXIT.failed
  } finally {
    abort.abort()
    await children.stopAll()
    removeTemp()
    scrubKey()
  }
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    const known = error instanceof DemoError || error instanceof StartupError
    warn(`proctor demo: ${known ? (error as Error).message : error instanceof Error ? error.stack : String(error)}`)
    process.exitCode = 1
  },
)
