import { existsSync, realpathSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { REPO_ROOT } from "@proctor/bench-shared"

export type AgentName = "codex" | "claude-code"
export const AGENTS: ReadonlyArray<AgentName> = ["codex", "claude-code"]

/** The key the agent is given by hand: the baseline model takes any. */
const HAND_KEY = "sk-by-hand"

/** A package's directory as resolved from `from` (packages/cli, whose devDependencies the agent CLIs are). */
const packageDir = (name: string, from: string) =>
  dirname(realpathSync(createRequire(join(from, "package.json")).resolve(`${name}/package.json`)))

/** The native program proctor runs for each agent: the same file is run by hand. */
export const agentProgram = (agent: AgentName): string => {
  const cli = join(REPO_ROOT, "packages/cli")
  const triple = process.arch === "arm64" ? "aarch64-unknown-linux-musl" : "x86_64-unknown-linux-musl"
  const path =
    agent === "codex"
      ? join(
          packageDir(`@openai/codex-linux-${process.arch}`, packageDir("@openai/codex", cli)),
          `vendor/${triple}/bin/codex`,
        )
      : join(
          packageDir(`@anthropic-ai/claude-code-linux-${process.arch}`, packageDir("@anthropic-ai/claude-code", cli)),
          "claude",
        )
  if (!existsSync(path)) throw new Error(`${agent}: no program at ${path} (npx -y pnpm@10 install)`)
  return path
}

/**
 * The agent as someone runs it by hand on a task: the same flags proctor gives it, its base URL straight at the
 * model, its JSON output on stdout.
 */
export const handCommand = (
  agent: AgentName,
  program: string,
  instruction: string,
  modelUrl: string,
): { readonly argv: ReadonlyArray<string>; readonly env: Readonly<Record<string, string>> } =>
  agent === "codex"
    ? {
        argv: [
          program,
          "exec",
          "--json",
          "--skip-git-repo-check",
          "--dangerously-bypass-approvals-and-sandbox",
          "--ephemeral",
          ...["--color", "never", "-C", "/app", "-m", "baseline"],
          ...["-c", 'model_provider="local"'],
          ...["-c", 'model_providers.local.name="local"'],
          ...["-c", `model_providers.local.base_url=${JSON.stringify(modelUrl)}`],
          ...["-c", 'model_providers.local.env_key="MODEL_KEY"'],
          ...["-c", 'model_providers.local.wire_api="responses"'],
          ...["-c", "analytics.enabled=false"],
          instruction,
        ],
        env: { MODEL_KEY: HAND_KEY },
      }
    : {
        argv: [
          program,
          "-p",
          instruction,
          ...["--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--model", "baseline"],
        ],
        env: {
          ANTHROPIC_BASE_URL: modelUrl.replace(/\/v1\/?$/, ""),
          ANTHROPIC_API_KEY: HAND_KEY,
          IS_SANDBOX: "1",
          DISABLE_TELEMETRY: "1",
          DISABLE_ERROR_REPORTING: "1",
          DISABLE_AUTOUPDATER: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        },
      }
