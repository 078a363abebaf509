import { type FlagValues, text, toggle } from "./flagTable.js"

/** Where a job server is and how to authenticate: the flags of `jobs …` and of `compare` on job ids. */
export const jobServerFlags = {
  backend: text("--backend <url>", "job server base URL (default PROCTOR_BACKEND_URL, then SYNTH_BASE_URL)"),
  apiKey: text("--api-key <key>", "job server API key (default PROCTOR_API_KEY, then SYNTH_API_KEY)"),
  envFile: text("--env-file <path>", "dotenv file with PROCTOR_* / SYNTH_* variables"),
}
export type JobServerOptions = FlagValues<typeof jobServerFlags>

/** `--json`, as every command that can print JSON instead of text says it. */
export const jsonFlag = { json: toggle("--json", "print JSON instead of text") }
