import { dirname } from "node:path"
import { Effect } from "effect"
import { SolverError, type StepRecord } from "../solver/Solver.js"
import { makeCommandLineAgent } from "./CommandLineAgent.js"
import { STEP_OUTPUT_CHARS } from "./internal/commandRecord.js"
import { field, items, num, text } from "./internal/jsonFields.js"
import { platformBinary } from "./internal/npmBinary.js"

/** The Rust target triple of `@openai/codex`'s program for this machine (its platform packages ship musl builds). */
const TRIPLE: Readonly<Record<string, string>> = {
  x64: "x86_64-unknown-linux-musl",
  arm64: "aarch64-unknown-linux-musl",
}

/** Codex's program from the npm package `@openai/codex` (its platform package's static musl binary). */
const codexBinary = Effect.suspend(() => {
  const triple = TRIPLE[process.arch]
  const found =
    process.platform === "linux" && triple !== undefined
      ? platformBinary("@openai/codex", `@openai/codex-linux-${process.arch}`, `vendor/${triple}/bin/codex`)
      : { missing: `Codex runs in a sandbox on Linux x64 or arm64, not ${process.platform} ${process.arch}` }
  return "path" in found
    ? Effect.succeed(found.path)
    : Effect.fail(new SolverError({ reason: "Failed", retryable: false, message: `--agent codex: ${found.missing}` }))
})

const cut = (value: string) => value.slice(0, STEP_OUTPUT_CHARS)

/** The model's call of Codex's shell tool for a command it runs. */
const shellCall = (id: string, command: string): StepRecord => ({
  kind: "model",
  text: "",
  tool_calls: [{ id, name: "exec_command", arguments: JSON.stringify({ command }) }],
})

/**
 * `codex exec --json` events as steps: each command it runs is the model's call of its shell tool (as soon as the
 * command starts) and then the command with its output (when it ends); its messages are model turns; its errors and
 * token counts are notes.
 */
const codexTrajectory = () => {
  /** Commands whose call was shown when they started. */
  const started = new Set<string>()
  return (event: unknown): ReadonlyArray<StepRecord> => {
    const type = text(event, "type")
    const item = field(event, "item")
    const id = text(item, "id")
    if (type === "item.started" && text(item, "type") === "command_execution") {
      started.add(id)
      return [shellCall(id, text(item, "command"))]
    }
    if (type === "item.completed") {
      switch (text(item, "type")) {
        case "command_execution": {
          const command = text(item, "command")
          const ran: StepRecord = {
            kind: "command",
            command,
            exit_code: num(item, "exit_code"),
            stdout: cut(text(item, "aggregated_output")),
            stderr: "",
            truncated: text(item, "aggregated_output").length > STEP_OUTPUT_CHARS,
          }
          return started.delete(id) ? [ran] : [shellCall(id, command), ran]
        }
        case "file_change": {
          const changes = items(item, "changes").map((change) => `${text(change, "kind")} ${text(change, "path")}`)
          return [
            {
              kind: "model",
              text: "",
              tool_calls: [{ id, name: "apply_patch", arguments: JSON.stringify({ changes }) }],
            },
            { kind: "tool", text: "apply_patch", tool_call_id: id, output: changes.join("\n") },
          ]
        }
        case "agent_message":
          return [{ kind: "model", text: text(item, "text"), tool_calls: [] }]
        case "error":
          return [{ kind: "note", text: `codex: ${text(item, "message")}` }]
        default:
          return []
      }
    }
    if (type === "turn.completed") {
      const usage = field(event, "usage")
      return [
        {
          kind: "note",
          text: `codex turn: ${num(usage, "input_tokens")} in, ${num(usage, "output_tokens")} out tokens`,
        },
      ]
    }
    if (type === "turn.failed") return [{ kind: "note", text: `codex: ${text(field(event, "error"), "message")}` }]
    if (type === "error") return [{ kind: "note", text: `codex: ${text(event, "message")}` }]
    return []
  }
}

/** A TOML string for `codex -c key=value`. */
const toml = (value: string) => JSON.stringify(value)

/**
 * OpenAI's Codex CLI (`@openai/codex`), unmodified: `codex exec --json` in the task's workdir with a custom
 * provider `proctor` speaking the Responses API to the rollout's interceptor, its key a stand-in read from
 * `PROCTOR_MODEL_KEY`; its own sandbox and approvals are off (proctor's sandbox is the boundary) and it keeps no
 * session files.
 */
export const CodexAgent = makeCommandLineAgent({
  name: "codex",
  program: Effect.map(codexBinary, (path) => ({ path, hostPaths: [dirname(dirname(path))] })),
  command: (run) => ({
    argv: [
      run.program,
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--dangerously-bypass-approvals-and-sandbox",
      "--ephemeral",
      "--color",
      "never",
      "-C",
      run.workdir,
      "-m",
      run.model,
      ...["-c", `model_provider=${toml("proctor")}`],
      ...["-c", `model_providers.proctor.name=${toml("proctor")}`],
      ...["-c", `model_providers.proctor.base_url=${toml(run.baseUrl)}`],
      ...["-c", `model_providers.proctor.env_key=${toml("PROCTOR_MODEL_KEY")}`],
      ...["-c", `model_providers.proctor.wire_api=${toml("responses")}`],
      ...["-c", "analytics.enabled=false"],
      run.instruction,
    ],
    env: { PROCTOR_MODEL_KEY: run.apiKey },
  }),
  trajectory: codexTrajectory,
})
