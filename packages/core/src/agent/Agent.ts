import type { Effect } from "effect"
import { Stream } from "effect"
import type { StopReason } from "../result/RolloutStep.js"
import type { SandboxError, SandboxHandle } from "../sandbox/Sandbox.js"
import type { RolloutTask, SolverError, StepRecord } from "../solver/Solver.js"
import type { AgentLimits } from "./AgentLimits.js"
import type { HarborTask } from "./HarborTask.js"
import { emitting } from "./internal/emitting.js"

/** What an agent is given for one rollout: the task, its sandbox (open), the rollout and its limits. */
export interface AgentContext {
  readonly task: HarborTask
  readonly sandbox: SandboxHandle
  readonly rollout: RolloutTask
  readonly limits: AgentLimits
  /**
   * The agent keeps this up to date as it goes, so a rollout cut short by its time limit still reports how
   * far the agent got.
   */
  readonly progress: AgentProgress
  /**
   * For an agent that runs inside the sandbox: the rollout's model base URL as seen from inside it (the
   * interceptor, relayed to the sandbox's loopback), or null when the rollout routes no model calls.
   */
  readonly sandboxModelUrl: string | null
}

export interface AgentProgress {
  turns: number
  messages: number
}

/** How the agent's part of a rollout ended (grading comes after, and is the solver's). */
export interface AgentOutcome {
  readonly stop_reason: StopReason
  readonly turns: number
  readonly messages: number
}

export type AgentEvent =
  | { readonly _tag: "AgentStep"; readonly record: StepRecord }
  | ({ readonly _tag: "AgentDone" } & AgentOutcome)

export type AgentFailure = SandboxError | SolverError

/**
 * An agent: `oracle`, `builtin`, and the command-line agents (Codex, Claude Code) that run inside the sandbox.
 * `run` is a stream of the steps it takes that ends with one `AgentDone`.
 */
export interface Agent {
  readonly name: string
  /** False for `oracle`: a run of it needs no model endpoint and routes no calls. */
  readonly usesModel: boolean
  /**
   * Set for the command-line agents, which run inside the sandbox: the host paths their program needs there
   * (read-only). The sandbox of such an agent reaches the rollout's interceptor and nothing else.
   */
  readonly inSandbox?: { readonly hostPaths: Effect.Effect<ReadonlyArray<string>, SolverError> }
  readonly run: (ctx: AgentContext) => Stream.Stream<AgentEvent, AgentFailure>
}

/**
 * An agent written as a plain loop: `body` emits step records as it goes and returns its outcome, which becomes
 * the stream's last event.
 */
export const agentStream = <E>(
  body: (emit: (record: StepRecord) => Effect.Effect<void>) => Effect.Effect<AgentOutcome, E>,
): Stream.Stream<AgentEvent, E> =>
  Stream.map(
    emitting(body),
    (event): AgentEvent =>
      event._tag === "Item" ? { _tag: "AgentStep", record: event.item } : { _tag: "AgentDone", ...event.value },
  )
