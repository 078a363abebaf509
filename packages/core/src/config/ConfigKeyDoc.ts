import type { SchemaAST } from "effect"

/**
 * What the config reference (apps/docs) says about a key of the eval config, kept as annotations on the key's
 * Schema field so the reference is generated from the code that decodes the key.
 */
export interface ConfigKeyDoc {
  readonly description: string
  /** synth-ai's name for the key (usually the same); null for proctor's own keys. */
  readonly synthAi: string | null
  /** The value as written in TOML (`16`, `["0-99"]`, `"http://127.0.0.1:8000"`); tests decode it. */
  readonly example: string
  /** The `proctor eval` flag or argument that sets the key, when one does. */
  readonly flag?: string
  /** The default in words, when it is not one value (`runs/{run_id}`, "true when traces_dir is set"). */
  readonly defaultText?: string
}

const ConfigKeyDocId: unique symbol = Symbol.for("@proctor/core/ConfigKeyDoc")

/** Annotations for a config key's property signature: `description` plus the rest of the doc. */
export const configKeyDoc = (doc: ConfigKeyDoc) => ({ description: doc.description, [ConfigKeyDocId]: doc })

/** The doc of a config key's property signature, if it has one. */
export const configKeyDocOf = (signature: SchemaAST.PropertySignature): ConfigKeyDoc | undefined =>
  signature.annotations[ConfigKeyDocId] as ConfigKeyDoc | undefined

/**
 * What the config reference says about synth-ai keys proctor reads under another name (`RENAMED`), keys it
 * does not use and why (`SYNTH_AI_UNUSED`), and policy keys that belong in `[eval.policy_config]` (`POLICY_KEYS`).
 */
export {
  POLICY_KEYS as policyTableKeys,
  RENAMED as synthAiRenamedKeys,
  SYNTH_AI_UNUSED as synthAiUnusedKeys,
} from "./internal/reviewConfigKeys.js"
