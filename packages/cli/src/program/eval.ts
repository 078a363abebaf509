import { type Command, Option } from "commander"
import { collectSpec } from "../modelRateLimits.js"
import type { RunCommand } from "./RunCommand.js"

/** Declares `proctor eval`; its implementation (commands/evalCommand.ts) loads when it runs. */
export const registerEvalCommand = (program: Command, run: RunCommand): void => {
  program
    .command("eval")
    .description("run one rollout per seed and attempt against a task app, or an agent on Harbor-format tasks")
    .argument("[app_id]", "task app id (synth-ai's APP_ID)")
    .option("--config <path>", "eval TOML ([eval] table, synth-ai schema)")
    .option("--url <url>", "task app base URL")
    .option("--seeds <seeds>", 'seeds: "0,1,2", "0-99" or a mix')
    .option("--model <model>", "model name passed to the policy")
    .option(
      "--inference-url <url>",
      "the policy's model endpoint (OpenAI-compatible base URL). First found wins: --inference-url, --provider, " +
        "[eval.policy_config] inference_url, [eval] provider, OPENAI_BASE_URL",
    )
    .option("--provider <name>", "use this provider's base URL: openai (honours OPENAI_BASE_URL), anthropic, groq, …")
    .option("--strict", "unknown config keys are errors, not warnings (also: strict = true)")
    .option("--env-file <path>", "dotenv file (ENVIRONMENT_API_KEY, model keys)")
    .option("--concurrency <n>", "rollouts in flight at once")
    .option("--return-trace", "ask task apps for traces")
    .option("--traces-dir <dir>", "write seed_{seed}_trace.json files here")
    .option("--output <path>", "write results JSON here (same as --output-json)")
    .option("--output-txt <path>", "write the config and results table here")
    .option("--output-json <path>", "write config, results and summary JSON here")
    .option("--attempts <n>", "attempts per seed (pass@k when > 1)")
    .option("--max-retries <n>", "retries per rollout for system errors")
    .option("--timeout <seconds>", "deadline of one rollout")
    .option("--run-dir <dir>", "run directory (default runs/{run_id})")
    .option("--resume <run_dir>", "run only the rollouts missing from a run directory")
    .option("--retry-errors", "with --resume: run the errored rollouts again (the journal keeps the earlier tries)")
    .option("--repair", "with --resume: back up the journal, then drop every line that is not a result of the run")
    .option("--fail-under <score>", "exit 1 when the mean score is below this score (0 to 1)")
    .option("--json", "print the summary as JSON instead of the table")
    .addOption(
      new Option("--table <rows>", "terminal table: failures and first/last rows, or every row").choices([
        "compact",
        "full",
      ]),
    )
    .option("--no-intercept", "let the task app call the model directly (no tokens, cost or traces from proctor)")
    .option("--pricing <file>", "JSON prices (USD per token) that override or extend the built-in table")
    .option(
      "--model-rate-limit <spec>",
      "limit calls to a model: <base URL>=<N>rpm[,<N>tpm], repeatable (default PROCTOR_MODEL_RATE_LIMITS)",
      collectSpec,
    )
    .option("--max-response-bytes <n>", "refuse task-app answers longer than this (default 16 MiB)")
    // agent runs (Harbor-format tasks in sandboxes)
    .option("--tasks <dir>", "a directory of Harbor-format tasks (or one task): seeds are the tasks, in name order")
    .option("--agent <name>", "the agent that carries out --tasks: oracle (solution/solve.sh) or builtin (on --model)")
    .option("--sandbox <runtime>", "where each rollout's sandbox runs: docker (default), bwrap, local (no isolation)")
    .option("--max-turns <n>", "most model turns of an agent's rollout (default 100)")
    .option("--max-tokens <n>", "most tokens one rollout's model calls may use")
    .option("--max-cost <usd>", "most USD one rollout's model calls may cost")
    .option("--agent-timeout <seconds>", "the agent's working time per rollout (a task's [agent] timeout_sec wins)")
    .option("--verifier-timeout <seconds>", "the tests' time per rollout (a task's [verifier] timeout_sec wins)")
    .option("--view", "serve the viewer of this run on loopback as it goes (URL on stderr; it stays until Ctrl-C)")
    // job server mode (src/backend): run this eval as a job on a proctor or synth-ai job server
    .option("--backend <url>", "run on this job server (or PROCTOR_BACKEND_URL; key from PROCTOR_API_KEY)")
    .addOption(new Option("--grace-seconds <s>", "how long in-flight rollouts may finish after Ctrl-C").default("10"))
    .action(async (appId: string | undefined, options: Record<string, string | boolean | undefined>) => {
      await run(async (io) => {
        // One script with its code cache (src/evalScript.ts, build.mjs), found through this package's exports.
        const { loadScript } = await import("../internal/loadScript.js")
        const script = loadScript(new URL(import.meta.resolve("proctor/eval-script")))
        const { runEval } = script.exports as typeof import("../evalScript.js")
        return runEval({ ...options, ...(appId === undefined ? {} : { appId }) }, io)
      })
    })
}
