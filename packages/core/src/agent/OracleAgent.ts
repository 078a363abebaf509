import { join } from "node:path"
import { Effect } from "effect"
import { type Agent, agentStream } from "./Agent.js"
import { commandRecord } from "./internal/commandRecord.js"
import { runScriptLine } from "./internal/scriptLine.js"

/**
 * Harbor's `oracle`: copies the task's `solution/` to `/solution` and runs `solve.sh` in the agent's working
 * directory — how task authors check that a task can be solved. One "turn", no model.
 */
export const OracleAgent: Agent = {
  name: "oracle",
  usesModel: false,
  run: (ctx) =>
    agentStream((emit) =>
      Effect.gen(function* () {
        yield* ctx.sandbox.copyIn(join(ctx.task.dir, "solution"), "/solution")
        const line = runScriptLine("/solution/solve.sh")
        const result = yield* ctx.sandbox.exec(line)
        yield* emit(commandRecord("bash /solution/solve.sh", result))
        ctx.progress.turns = 1
        return { stop_reason: "model_ended" as const, turns: 1, messages: 0 }
      }),
    ),
}
