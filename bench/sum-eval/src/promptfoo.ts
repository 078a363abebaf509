import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { sumQuestion } from "./sumQuestion.js"

/** promptfoo installed outside the repository (`npm i promptfoo node@22` in one directory): it needs Node ≥ 22.22. */
export interface Promptfoo {
  /** The Node binary of the `node` package installed beside it. */
  readonly node: string
  /** Its CLI's entry script. */
  readonly entry: string
  readonly version: string
}

export const findPromptfoo = (dir: string): Promptfoo => {
  const modules = join(resolve(dir), "node_modules")
  const node = join(modules, "node", "bin", "node")
  const manifest = join(modules, "promptfoo", "package.json")
  if (!existsSync(node) || !existsSync(manifest)) {
    throw new Error(
      `--promptfoo ${dir}: no node_modules/node and node_modules/promptfoo there (npm i promptfoo node@22)`,
    )
  }
  const { version, bin } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string; bin: { promptfoo: string } }
  return { node, entry: join(modules, "promptfoo", bin.promptfoo), version }
}

/**
 * A promptfooconfig (JSON, which YAML reads) asking the same questions as the task app for seeds 0…N-1 of the
 * same model, as an OpenAI-compatible provider at `modelUrl`, each answer asserted equal to the sum.
 */
export const writePromptfooConfig = (path: string, prompts: number, modelUrl: string, model: string): void => {
  const tests = Array.from({ length: prompts }, (_, seed) => {
    const { prompt, answer } = sumQuestion(seed)
    return { vars: { prompt }, assert: [{ type: "equals", value: String(answer) }] }
  })
  const config = {
    description: "sum",
    prompts: ["{{prompt}}"],
    providers: [{ id: `openai:chat:${model}`, config: { apiBaseUrl: modelUrl, apiKey: "unused" } }],
    tests,
  }
  writeFileSync(path, JSON.stringify(config))
}

/**
 * promptfoo's environment for an offline, unattended run: no telemetry, update check, sharing or remote
 * generation; its database and logs in `configDir`; exit 0 when assertions fail (the model is deliberately
 * imperfect), so a non-zero exit means promptfoo itself failed.
 */
export const promptfooEnv = (configDir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  PROMPTFOO_DISABLE_TELEMETRY: "1",
  PROMPTFOO_DISABLE_UPDATE: "1",
  PROMPTFOO_DISABLE_SHARING: "1",
  PROMPTFOO_DISABLE_REMOTE_GENERATION: "1",
  PROMPTFOO_CONFIG_DIR: configDir,
  PROMPTFOO_FAILED_TEST_EXIT_CODE: "0",
  OPENAI_API_KEY: "unused",
})

export interface PromptfooTally {
  readonly passed: number
  readonly failed: number
  readonly errors: number
}

const count = (text: string, what: string): number => {
  const match = new RegExp(`([\\d,]+) ${what}`).exec(text)
  if (match === null) throw new Error(`promptfoo's output has no "N ${what}":\n${text.slice(-2000)}`)
  return Number(match[1]!.replaceAll(",", ""))
}

/** The "Results:" lines promptfoo prints at the end of an eval (`✓ 1,800 passed`, `✗ 200 failed`, `0 errors`). */
export const promptfooTally = (stdout: string): PromptfooTally => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
  const plain = stdout.replace(/\u001b\[[\d;]*m/g, "")
  const text = plain.slice(plain.lastIndexOf("Results:"))
  return { passed: count(text, "passed"), failed: count(text, "failed"), errors: count(text, "errors?") }
}
