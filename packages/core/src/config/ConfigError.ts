import { Schema } from "effect"

/** A config that cannot be used. `message` names the key path (or flag) and what was expected. */
export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  reason: Schema.Literal("InvalidValue", "Missing", "FileNotFound", "TomlSyntax", "EnvFile"),
  message: Schema.String,
}) {}
