import { nearestName } from "../../internal/nearestName.js"
import { isTable, type KeyFinding } from "../../internal/reviewTableKeys.js"

/** Keys of synth-ai's `[eval]` that proctor does not use, and what to know about each. */
export const SYNTH_AI_UNUSED: Readonly<Record<string, string>> = {
  metadata: "proctor does not filter tasks by metadata; every seed given runs",
  metadata_sql: "proctor does not select seeds by SQL; every seed given runs",
  split: "proctor does not pick a dataset split",
  seed_set: "proctor runs the seeds given",
  verifier_config: "synth-ai's hosted verifier is not called; [[eval.graders]] grade each rollout in proctor",
  output_txt: "use --output-txt",
  output_json: "use --output-json",
  env_file: "use --env-file",
  trace_db: "traces go to the run directory and --traces-dir",
  poll_interval: "proctor follows jobs by events, not polling",
  backend_api_key: "the job server's key comes from PROCTOR_API_KEY or SYNTH_API_KEY",
}

/** synth-ai's other names for keys proctor reads under its own name. */
export const RENAMED: Readonly<Record<string, string>> = { max_concurrent: "concurrency", policy: "policy_config" }

/** Policy settings synth-ai once also read from `[eval]` itself; proctor passes only `policy_config` on. */
export const POLICY_KEYS = new Set([
  "inference_url",
  "api_key",
  "temperature",
  "top_p",
  "max_tokens",
  "max_completion_tokens",
  "reasoning_effort",
  "system_hint",
  "tool_choice",
  "stop",
])

/** Tables of synth-ai's other commands, which may share a file with an eval config. */
const SYNTH_AI_TABLES = new Set(["prompt_learning", "rl", "sft", "compute", "topology", "training", "data", "services"])

const join = (prefix: string, key: string) => (prefix === "" ? key : `${prefix}.${key}`)

/**
 * Reads an eval TOML's keys the way a reviewer would: every key proctor will not read is named, with the
 * key it most likely meant or the table it belongs in. The section is `[eval]` when the file has one, else
 * the whole file (synth-ai accepts both).
 */
export const reviewConfigKeys = (
  document: Readonly<Record<string, unknown>>,
  evalKeys: ReadonlyArray<string>,
): ReadonlyArray<KeyFinding> => {
  const known = new Set(evalKeys)
  const findings: Array<KeyFinding> = []
  const unknown = (message: string) => findings.push({ severity: "unknown", message })
  const inEvalTable = isTable(document.eval)
  const prefix = inEvalTable ? "eval" : ""
  const section = inEvalTable ? (document.eval as Record<string, unknown>) : document

  if (inEvalTable) {
    for (const key of Object.keys(document)) {
      if (known.has(key) && !isTable(document[key]))
        unknown(`${key}: outside [eval]; a file with an [eval] table is read from that table only — move it there`)
    }
  }

  for (const [key, value] of Object.entries(section)) {
    const path = join(prefix, key)
    if (known.has(key)) continue
    const renamed = RENAMED[key]
    const holds = isTable(value) ? Object.keys(value).filter((k) => known.has(k)) : []
    if (renamed !== undefined) unknown(`${path}: synth-ai's name for ${join(prefix, renamed)}, which proctor reads`)
    else if (POLICY_KEYS.has(key)) unknown(`${path}: belongs in [${join(prefix, "policy_config")}]`)
    else if (SYNTH_AI_UNUSED[key] !== undefined)
      findings.push({
        severity: "unused",
        message: `${path}: a synth-ai key proctor does not use (${SYNTH_AI_UNUSED[key]})`,
      })
    else if (!inEvalTable && holds.length > 0)
      unknown(`[${key}]: not read; its keys ${holds.join(", ")} belong in [eval] — rename [${key}] to [eval]`)
    else if (!inEvalTable && SYNTH_AI_TABLES.has(key))
      findings.push({ severity: "unused", message: `[${key}]: a synth-ai table proctor eval does not read` })
    else {
      const candidates = inEvalTable || !isTable(value) ? evalKeys : ["eval", ...evalKeys]
      const nearest = nearestName(key, candidates)
      unknown(`${path}: unknown key${nearest === undefined ? "" : ` — did you mean ${join(prefix, nearest)}?`}`)
    }
  }
  return findings
}

/** Every path of a document, below the section proctor reads, where one of `keys` is set (to say so when missing). */
export const locateKeys = (
  document: Readonly<Record<string, unknown>>,
  keys: ReadonlyArray<string>,
  skip: Readonly<Record<string, unknown>>,
  prefix = "",
): ReadonlyArray<string> =>
  Object.entries(document).flatMap(([key, value]) => {
    const path = join(prefix, key)
    const here = document !== skip && keys.includes(key) ? [path] : []
    return isTable(value) ? [...here, ...locateKeys(value, keys, skip, path)] : here
  })
