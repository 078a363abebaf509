import { Effect, Fiber, Queue } from "effect"
import type { StopReason } from "../result/RolloutStep.js"
import type { ExecResult } from "../sandbox/Sandbox.js"
import { SolverError, type StepRecord } from "../solver/Solver.js"
import { type Agent, type AgentContext, type AgentOutcome, agentStream } from "./Agent.js"
import { commandRecord } from "./internal/commandRecord.js"
import { jsonLines } from "./internal/jsonLines.js"
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
}

/** Where the agent's state and its raw trajectory are kept inside the sandbox (Harbor's agent log directory). */
const AGENT_HOME = "/logs/agent/home"
/** The agent's process is stopped a little before the rollout's timer, so its trajectory is kept. */
const STOP_MARGIN_MS = 2_000

/**
 * The same line starts the program in every runtime: `$SANDBOX_ROOT` (empty in isolated runtimes, see
 * LocalRuntime) places the agent's home, a fresh writable `HOME` for its state.
 */
const LAUNCH = ['home="$SANDBOX_ROOT$AGENT_HOME"', 'mkdir -p "$home"', 'export HOME="$home"', 'exec "$@"'].join("; ")

/** Marks the end of the agent's output in its event queue. */
const EXITED = Symbol("exited")

const failed = (message: string, retryable: boolean) => new SolverError({ reason: "Failed", message, retryable })

/**
 * An agent that is a program run inside the task's sandbox (Codex CLI, Claude Code, one the user declares): its
 * model base URL is the rollout's interceptor and its key a stand-in, so every call it makes is traced and priced
 * and the real key never enters the sandbox. Its JSONL output is read as it arrives: each event is kept with the
 * rollout (`agent_trajectory.jsonl`) and becomes the rollout's steps at once. Its turns are its model calls: it ends
 * when the program exits (`model_ended`), at the agent's time limit (`max_time`), or when the interceptor refuses
 * the call past a limit (`max_turns`/`max_tokens`/`max_cost`). A program that fails otherwise is a retried failure
 * with its last words.
 */
export const makeCommandLineAgent = (spec: CommandLineAgentSpec): Agent => ({
  name: spec.name,
  usesModel: true,
  inSandbox: { hostPaths: Effect.map(spec.program, (program) => program.hostPaths) },
  run: (ctx: AgentContext) => {
    /** Its turns are the model calls the interceptor forwarded (see `RolloutLimits.countTurnsAsCalls`). */
    const outcome = (stop_reason: StopReason): AgentOutcome => {
      ctx.progress.turns = ctx.rollout.limits?.turns() ?? ctx.progress.turns
      return { stop_reason, ...ctx.progress }
    }
    /**
     * How the program's run ended: at its time limit, at a limit the interceptor held (it refused the call over it,
     * and the rollout's limits know which), by its own choice, or failed.
     */
    const outcomeOf = (result: ExecResult) => {
      if (result.timedOut) return Effect.succeed(outcome("max_time"))
      const reached = ctx.rollout.limits?.reached() ?? null
      if (reached !== null && reached !== "max_time") return Effect.succeed(outcome(reached))
      if (result.exitCode === 0) return Effect.succeed(outcome("model_ended"))
      const said = (result.stderr.trim() || result.stdout.trim()).split("\n").slice(-3).join(" | ")
      // 126/127: the program cannot run there at all (a glibc build in an image without glibc): no retry helps.
      const cannotRun = result.exitCode === 126 || result.exitCode === 127
      return failed(
        `${spec.name} exited ${result.exitCode}${cannotRun ? " (its program cannot run in this sandbox's image)" : ""}: ${said.slice(0, 500)}`,
        !cannotRun,
      )
    }
    return agentStream((emit) =>
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
        })
        const started = Date.now()
        const timeLeft = () => Math.max(1_000, ctx.limits.agentTimeoutMs - STOP_MARGIN_MS - (Date.now() - started))
        if (spec.install !== undefined) {
          const installed = yield* ctx.sandbox.exec(spec.install, { timeoutMs: timeLeft() })
          yield* emit(commandRecord(spec.install, installed))
          if (installed.timedOut) return outcome("max_time")
          if (installed.exitCode !== 0) {
            return yield* failed(`${spec.name}: its install line exited ${installed.exitCode}`, false)
          }
        }
        const command = ["sh", "-c", LAUNCH, spec.name, ...argv]
        const execOptions = { env: { ...env, AGENT_HOME }, timeoutMs: timeLeft() }
        if (spec.trajectory === null) {
          const result = yield* ctx.sandbox.exec(command, execOptions)
          yield* emit(commandRecord(argv, result))
          return yield* outcomeOf(result)
        }
        // Its output is read as it arrives: each event is kept, and becomes steps, while the agent still works.
        const events = yield* Queue.unbounded<unknown>()
        const reader = jsonLines((event) => Queue.unsafeOffer(events, event))
        const finished = Effect.sync(() => {
          reader.end()
          Queue.unsafeOffer(events, EXITED)
        })
        const running = yield* Effect.fork(
          Effect.ensuring(ctx.sandbox.exec(command, { ...execOptions, onStdout: reader.push }), finished),
        )
        const stepsOf = spec.trajectory()
        let count = 0
        for (let event = yield* Queue.take(events); event !== EXITED; event = yield* Queue.take(events)) {
          count++
          if (ctx.rollout.recordAgentEvent !== undefined) yield* ctx.rollout.recordAgentEvent(spec.name, event)
          for (const record of stepsOf(event)) {
            ctx.progress.messages++
            yield* emit(record)
          }
          ctx.progress.turns = ctx.rollout.limits?.turns() ?? ctx.progress.turns
        }
        const result = yield* Fiber.join(running)
        yield* emit({ kind: "note", text: `${spec.name} exited ${result.exitCode}: ${count} events` })
        return yield* outcomeOf(result)
      }),
    )
  },
})
