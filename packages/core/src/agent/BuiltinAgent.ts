import { Effect } from "effect"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { upstreamUrl } from "../interceptor/InferenceUrl.js"
import type { ModelApi } from "../result/ModelCall.js"
import type { StepRecord } from "../solver/Solver.js"
import { type Agent, type AgentContext, agentStream } from "./Agent.js"
import { turnLimitReached } from "./AgentLimits.js"
import { requestBody, type ToolCall, type ToolSpec, type Turn } from "./internal/agentApis.js"
import { callModel, failed } from "./internal/callModel.js"
import { commandRecord } from "./internal/commandRecord.js"

/** The builtin agent's system prompt (documented in the guide "Evaluate an agent in a sandbox"). */
export const BUILTIN_SYSTEM_PROMPT = (workdir: string) =>
  [
    "You are an autonomous agent working in a Linux sandbox to carry out the user's task.",
    `Your working directory is ${workdir}. Act only through the tools:`,
    "- bash: run a shell command; you get its exit code and its output (cut when long).",
    "- read_file / write_file: read or write a text file (paths relative to the working directory, or absolute).",
    "- done: call it once the task is complete.",
    "Work step by step, check your work with commands, and call done when you have finished.",
  ].join("\n")

export const BUILTIN_TOOLS: ReadonlyArray<ToolSpec> = [
  {
    name: "bash",
    description: "Run one shell command in the sandbox's working directory. Returns the exit code and output.",
    parameters: {
      type: "object",
      properties: { command: { type: "string", description: "The shell command line" } },
      required: ["command"],
    },
  },
  {
    name: "read_file",
    description: "Read a text file from the sandbox.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  {
    name: "write_file",
    description: "Write a text file in the sandbox (created or replaced).",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
  },
  {
    name: "done",
    description: "Signal that the task is complete.",
    parameters: { type: "object", properties: {} },
  },
]

/** What a tool's answer to the model holds at most: long outputs are cut, and the model is told so. */
const TOOL_OUTPUT_CHARS = 16 * 1024

/** `policy_config.api` picks the API; else Anthropic's provider speaks messages; else chat completions. */
export const agentApiOf = (config: EvalRunConfig): ModelApi => {
  const chosen = config.policy_config.api
  if (chosen === "chat_completions" || chosen === "responses" || chosen === "messages") return chosen
  return config.provider === "anthropic" ? "messages" : "chat_completions"
}

const cutOutput = (text: string) =>
  text.length > TOOL_OUTPUT_CHARS
    ? `${text.slice(0, TOOL_OUTPUT_CHARS)}\n[output cut: ${text.length - TOOL_OUTPUT_CHARS} more characters]`
    : text

const argumentsOf = (call: ToolCall): Record<string, unknown> => {
  try {
    const parsed: unknown = JSON.parse(call.arguments)
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

const runTool = (ctx: AgentContext, call: ToolCall, emit: (record: StepRecord) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    const args = argumentsOf(call)
    const text = (key: string) => (typeof args[key] === "string" ? (args[key] as string) : "")
    switch (call.name) {
      case "bash": {
        const command = text("command")
        const result = yield* ctx.sandbox.exec(command)
        yield* emit(commandRecord(command, result))
        return cutOutput(`exit code: ${result.exitCode}\n${result.stdout}${result.stderr}`)
      }
      case "read_file": {
        const bytes = yield* ctx.sandbox.readFile(text("path"))
        return bytes === null ? `no such file: ${text("path")}` : cutOutput(Buffer.from(bytes).toString("utf8"))
      }
      case "write_file": {
        yield* ctx.sandbox.writeFile(text("path"), text("content"))
        return `wrote ${Buffer.byteLength(text("content"))} bytes to ${text("path")}`
      }
      case "done":
        return "ok"
      default:
        return `unknown tool ${call.name}: use bash, read_file, write_file or done`
    }
  })

/**
 * proctor's tool-calling shell agent: the task's instruction as the user's message, tools `bash`, `read_file`,
 * `write_file` and `done`, one model call per turn through the rollout's interceptor URL. It ends when the model
 * calls `done` or answers without a tool call (`model_ended`), or at a limit (`max_turns`; `max_time` is the
 * solver's timer; `max_tokens`/`max_cost` when the interceptor refuses a call over budget).
 */
export const BuiltinAgent: Agent = {
  name: "builtin",
  usesModel: true,
  run: (ctx) =>
    agentStream((emit) =>
      Effect.gen(function* () {
        const config = ctx.rollout.config
        const base = ctx.rollout.inferenceUrl ?? config.policy_config.inference_url
        if (typeof base !== "string") {
          return yield* failed("the builtin agent needs a model: give --inference-url (or --provider)", false)
        }
        const api = agentApiOf(config)
        const url = upstreamUrl(base, api)
        const model = config.model ?? String(config.policy_config.model ?? "")
        const system = BUILTIN_SYSTEM_PROMPT(ctx.sandbox.workdir)
        const turns: Array<Turn> = [{ role: "user", text: ctx.task.instruction }]
        const progress = ctx.progress
        // The system prompt and the instruction.
        progress.messages = 2
        for (;;) {
          const limit = turnLimitReached(ctx.limits, progress)
          if (limit !== null) return { stop_reason: limit, ...progress }
          const called = yield* callModel(url, api, requestBody(api, { model, system, turns, tools: BUILTIN_TOOLS }))
          if (called._tag === "Limit") return { stop_reason: called.stop, ...progress }
          const { reply } = called
          progress.turns++
          progress.messages++
          turns.push({ role: "assistant", text: reply.text, calls: reply.calls })
          yield* emit({
            kind: "model",
            text: reply.text,
            tool_calls: reply.calls.map((call) => ({ ...call })),
            tokens: reply.tokens,
          })
          if (reply.calls.length === 0) return { stop_reason: "model_ended" as const, ...progress }
          for (const call of reply.calls) {
            const output = yield* runTool(ctx, call, emit)
            turns.push({ role: "tool", callId: call.id, name: call.name, output })
            progress.messages++
            yield* emit({ kind: "tool", text: call.name, tool_call_id: call.id, output: cutOutput(output) })
          }
          if (reply.calls.some((call) => call.name === "done"))
            return { stop_reason: "model_ended" as const, ...progress }
        }
      }),
    ),
}
