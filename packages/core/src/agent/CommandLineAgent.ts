import { Effect } from "effect"
import type { StopReason } from "../result/RolloutStep.js"
import { SolverError, type StepRecord } from "../solver/Solver.js"
import { type Agent, type AgentContext, agentStream } from "./Agent.js"
import { commandRecord } from "./internal/commandRecord.js"
import { STAND_IN_KEY } from "./internal/standInKey.js"

/** What a command-line agent's command is built from, for one rollout. */
export interface AgentInvocation {
  /** The agent's program (a host path the sandbox sees read-only). */
  readonly program: string
  readonly instruction: string
  readonly model: string
  /** The rollout's model base URL from inside the sandbox (`http://127.0.0.1:{port}/{cid}/v1`). */
  readonly baseUrl: string
  /** The stand-in key: the interceptor holds the real one. */
  readonly apiKey: string
  readonly workdir: string
  /** A writable directory of the agent's own for its state (its HOME). */
  readonly home: string
  readonly maxTurns: number | null
}

export interface CommandLineAgentSpec {
  readonly name: string
  /** Its program on the host, and the host paths the sandbox must see for it to run. */
  readonly program: Effect.Effect<{ readonly path: string; readonly hostPaths: ReadonlyArray<string> }, SolverError>
  /** The program and its arguments, and the environment that points it at the model. */
  readonly command: (invocation: AgentInvocation) => {
    readonly argv: ReadonlyArray<string>
    readonly env: Readonly<Record<string, string>>
  }
  /**
   * A reader of its trajectory for one rollout: each event of its JSONL output as the rollout's steps. Null for
   * a program whose output proctor cannot read: its whole run is then one command step, with its output.
   */
  readonly trajectory: (() => (event: unknown) => ReadonlyArray<StepRecord>) | null
  /** A shell line run in the sandbox before the agent (its installation there), in the agent's time. */
  readonly install?: string | undefined
  /** A stop reason its own output states (Claude Code's `error_max_turns`), else null. */
  readonly stopOf?: (event: unknown) => StopReason | null
}

/** Where the agent's state and its raw trajectory are kept inside the sandbox (Harbor's agent log directory). */
const AGENT_HOME = "/logs/agent/home"
/** Room for a long trajectory on stdout; what is longer is cut (and the steps say so). */
const TRAJECTORY_BYTES = 64 * 1024 * 1024
/** The agent's process is stopped a little before the rollout's timer, so its trajectory is kept. */
const STOP_MARGIN_MS = 2_000

/**
 * The same line starts the program in every runtime: `$SANDBOX_ROOT` (empty in isolated runtimes, see
 * LocalRuntime) places the agent's home, a fresh writable `HOME` for its state.
 */
const LAUNCH = ['home="$SANDBOX_ROOT$AGENT_HOME"', 'mkdir -p "$home"', 'export HOME="$home"', 'exec "$@"'].join("; ")

const lines = (text: string): ReadonlyArray<unknown> =>
  text.split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return []
    try {
      return [JSON.parse(line) as unknown]
    } catch {
      return []
    }
  })

/** A model call over the rollout's budget: the interceptor's `proctor_limit` refusal, as the agent printed it. */
const budgetStop = (output: string): StopReason | null => {
  if (!output.includes("proctor_limit")) return null
  return output.includes("max_cost") ? "max_cost" : output.includes("max_tokens") ? "max_tokens" : null
}

const failed = (message: string, retryable: boolean) => new SolverError({ reason: "Failed", message, retryable })

/**
 * An agent that is a program run inside the task's sandbox (Codex CLI, Claude Code, one the user declares): its
 * model base URL is the rollout's interceptor and its key a stand-in, so every call it makes is traced and priced
 * and the real key never enters the sandbox. Its JSONL output becomes the rollout's steps; it ends when the
 * program exits (`model_ended`), at the agent's time limit (`max_time`), or when the interceptor refuses a call
 * over budget (`max_tokens`/`max_cost`). A program that fails otherwise is a retried failure with its last words.
 */
export const makeCommandLineAgent = (spec: CommandLineAgentSpec): Agent => ({
  name: spec.name,
  usesModel: true,
  inSandbox: { hostPaths: Effect.map(spec.program, (program) => program.hostPaths) },
  run: (ctx: AgentContext) =>
    agentStream((emit) =>
      Effect.gen(function* () {
        if (ctx.sandboxModelUrl === null) {
          return yield* failed(`the ${spec.name} agent needs a model: give --inference-url (or --provider)`, false)
        }
        const config = ctx.rollout.config
        const program = yield* spec.program
        const { argv, env } = spec.command({
          program: program.path,
          instruction: ctx.task.instruction,
          model: config.model ?? String(config.policy_config.model ?? ""),
          baseUrl: ctx.sandboxModelUrl,
          apiKey: STAND_IN_KEY,
          workdir: ctx.sandbox.workdir,
          home: AGENT_HOME,
          maxTurns: ctx.limits.maxTurns,
        })
        const started = Date.now()
        const timeLeft = () => Math.max(1_000, ctx.limits.agentTimeoutMs - STOP_MARGIN_MS - (Date.now() - started))
        if (spec.install !== undefined) {
          const installed = yield* ctx.sandbox.exec(spec.install, { timeoutMs: timeLeft() })
          yield* emit(commandRecord(spec.install, installed))
          if (installed.timedOut) return { stop_reason: "max_time" as const, ...ctx.progress }
          if (installed.exitCode !== 0) {
            return yield* failed(`${spec.name}: its install line exited ${installed.exitCode}`, false)
          }
        }
        const command = ["sh", "-c", LAUNCH, spec.name, ...argv]
        const result = yield* ctx.sandbox.exec(command, {
          env: { ...env, AGENT_HOME },
          timeoutMs: timeLeft(),
          maxOutputBytes: TRAJECTORY_BYTES,
        })
        const events = lines(result.stdout)
        let stated: StopReason | null = null
        if (spec.trajectory === null) {
          yield* emit(commandRecord(argv, result))
        } else {
          const stepsOf = spec.trajectory()
          for (const event of events) {
            for (const record of stepsOf(event)) {
              if (record.kind === "model") ctx.progress.turns++
              ctx.progress.messages++
              yield* emit(record)
            }
            stated = spec.stopOf?.(event) ?? stated
          }
          yield* emit({ kind: "note", text: `${spec.name} exited ${result.exitCode}: ${events.length} events` })
        }
        if (result.timedOut) return { stop_reason: "max_time" as const, ...ctx.progress }
        const limit = budgetStop(result.stdout) ?? budgetStop(result.stderr) ?? stated
        if (limit !== null) return { stop_reason: limit, ...ctx.progress }
        if (result.exitCode !== 0) {
          const said = (result.stderr.trim() || result.stdout.trim()).split("\n").slice(-3).join(" | ")
          // 126/127: the program cannot run there at all (a glibc build in an image without glibc): no retry helps.
          const cannotRun = result.exitCode === 126 || result.exitCode === 127
          return yield* failed(
            `${spec.name} exited ${result.exitCode}${cannotRun ? " (its program cannot run in this sandbox's image)" : ""}: ${said.slice(0, 500)}`,
            !cannotRun,
          )
        }
        return { stop_reason: "model_ended" as const, ...ctx.progress }
      }),
    ),
})
