import { ConfigError, type ModelRateLimitRule, parseModelRateLimit, parseModelRateLimits } from "@proctor/core"
import { Effect } from "effect"

/**
 * The configured model rate limits of a command: its `--model-rate-limit` flags, else `PROCTOR_MODEL_RATE_LIMITS`
 * (specs separated by whitespace). A bad spec is a usage error naming where it came from.
 */
export const modelRateLimitsOf = (
  flags: ReadonlyArray<string> | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Effect.Effect<ReadonlyArray<ModelRateLimitRule>, ConfigError> => {
  const refuse = (where: string, message: string) =>
    Effect.fail(new ConfigError({ reason: "InvalidValue", message: `${where}: ${message}` }))
  if (flags !== undefined && flags.length > 0) {
    const rules: Array<ModelRateLimitRule> = []
    for (const spec of flags) {
      const rule = parseModelRateLimit(spec)
      if (typeof rule === "string") return refuse("--model-rate-limit", rule)
      rules.push(rule)
    }
    return Effect.succeed(rules)
  }
  const rules = parseModelRateLimits(env.PROCTOR_MODEL_RATE_LIMITS ?? "")
  return typeof rules === "string" ? refuse("PROCTOR_MODEL_RATE_LIMITS", rules) : Effect.succeed(rules)
}
