import { integerFlag, secondsFlag } from "@proctor/core"
import type { Command } from "commander"
import { addFlags, type FlagValues, parsed, text } from "./flagTable.js"
import type { RunCommand } from "./RunCommand.js"

export const taskAppCheckFlags = {
  apiKey: text("--api-key <key>", "task-app key (default ENVIRONMENT_API_KEY)"),
  envFile: text("--env-file <path>", "dotenv file with ENVIRONMENT_API_KEY"),
  seed: parsed("--seed <n>", "seed of the test rollout", integerFlag(), { default: 0 }),
  model: text("--model <model>", "model for the test rollout"),
  inferenceUrl: text(
    "--inference-url <url>",
    "model endpoint for the test rollout (without one, the rollout is skipped)",
  ),
  provider: text("--provider <name>", "use this provider's base URL: openai, anthropic, groq, …"),
  timeout: parsed("--timeout <seconds>", "deadline of each request", secondsFlag, { default: 60 }),
}
export type TaskAppCheckOptions = FlagValues<typeof taskAppCheckFlags>

/** Declares `proctor task-app check`; its implementation (commands/taskAppCheckCommand.ts) loads when it runs. */
export const registerTaskAppCommands = (program: Command, run: RunCommand): void => {
  const taskApp = program.command("task-app").description("work with task apps")
  addFlags(
    taskApp
      .command("check")
      .description("check a task app against the synth-ai task-app contract")
      .argument("<url>", "task app base URL"),
    taskAppCheckFlags,
  ).action((url: string, options: TaskAppCheckOptions) =>
    run(async (io) => (await import("../commands/taskAppCheckCommand.js")).taskAppCheckCommand(url, options, io)),
  )
}
