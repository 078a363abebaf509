import { readFile } from "node:fs/promises"
import { basename, resolve } from "node:path"
import { Effect, Either, Redacted, Schema } from "effect"
import { parse as parseToml, TomlError } from "smol-toml"
import { harborTaskSeeds } from "../agent/HarborRun.js"
import { loadDataset } from "../dataset/Dataset.js"
import { reviewGraderKeys } from "../grader/GraderSpec.js"
import { importedSettings } from "../import/readImportedEval.js"
import { knownProviders, PROVIDERS, resolveModelEndpoint } from "../interceptor/ModelEndpoint.js"
import { formatParseIssues, renderPath } from "../internal/formatIssues.js"
import { type KeyFinding, typoFor } from "../internal/reviewTableKeys.js"
import { reviewJudgeKeys } from "../judge/JudgeSettings.js"
import { ConfigError } from "./ConfigError.js"
import { defaults, type EvalRunConfig, EvalTomlSection, MAX_ROLLOUTS } from "./EvalRunConfig.js"
import { parseInlineTable } from "./inlineTable.js"
import { parseEnvFile } from "./internal/envFile.js"
import { locateKeys, reviewConfigKeys } from "./internal/reviewConfigKeys.js"
import { synthAiJudges } from "./internal/synthAiJudges.js"
import { resumeSettingsOf } from "./ResumeSettings.js"
import { splitSecrets } from "./withoutSecrets.js"

const UrlFlag = Schema.String.pipe(
  Schema.filter((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
    message: (issue) => `expected an http(s) URL, got ${JSON.stringify(issue.actual)}`,
  }),
)
const ProviderFlag = Schema.String.pipe(
  Schema.filter((s) => Object.hasOwn(PROVIDERS, s), {
    message: (issue) => `expected one of ${knownProviders()}, got ${JSON.stringify(issue.actual)}`,
  }),
)

/**
 * What a flag says of the model endpoint, checked beyond the config keys' rules: the policy's model URL (a key
 * of no `[eval]` table: it lands in `policy_config.inference_url`), and a provider proctor knows, since a flag's
 * provider beats the file's URL.
 */
const EndpointFlags = Schema.Struct({
  inference_url: Schema.optionalWith(UrlFlag, { exact: true }),
  provider: Schema.optionalWith(ProviderFlag, { exact: true }),
})

/**
 * Settings given on the command line, as the config keys they set (values parsed by the CLI's flag parsers, see
 * flagParsers.ts), plus the policy's model endpoint. Which flag sets which key is the CLI's flag table.
 */
/** `--judge` is `[eval.judge]` written as an inline TOML table. */
export type EvalFlags = Omit<typeof EvalTomlSection.Encoded, "judge"> & {
  readonly inference_url?: string
  readonly judge?: string | (typeof EvalTomlSection.Encoded)["judge"]
}

export interface EvalConfigSources {
  /** Path of a synth-ai style TOML file (`[eval]` table or top-level keys). */
  readonly configPath?: string | undefined
  readonly flags?: EvalFlags | undefined
  /** A dotenv file whose variables override `env`. */
  readonly envFile?: string | undefined
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
}

const flagName = (path: ReadonlyArray<PropertyKey>): string => {
  const key = String(path[0] ?? "")
  // `--grader` is given once per grader: the problem is named by which one and where in it.
  if (key === "graders") return renderPath("--grader", path.slice(1))
  // `--judge` is a table: the problem is named by its key.
  if (key === "judge") return renderPath("--judge", path.slice(1))
  return key === "app_id" ? "APP_ID" : `--${key.replaceAll("_", "-")}`
}

/**
 * The keys of a section's grader specs and judge that proctor does not read: their schemas would drop them without a
 * word (a `tolerence` leaving the tolerance 0), so they are named like the section's own unknown keys.
 */
const specKeyFindings = (
  section: { readonly graders?: unknown; readonly judge?: unknown },
  render: (path: ReadonlyArray<PropertyKey>) => string,
): ReadonlyArray<KeyFinding> => [
  ...reviewGraderKeys(section.graders, ["graders"], render),
  ...reviewJudgeKeys(section.judge, ["judge"], render),
]

/** The section decoded; a key it lacks is named with the misspelt key among `findings` that most likely meant it. */
const decodeSection = (
  raw: unknown,
  render: (path: ReadonlyArray<PropertyKey>) => string,
  findings: ReadonlyArray<KeyFinding>,
) =>
  Schema.decodeUnknownEither(EvalTomlSection, { errors: "all" })(raw).pipe(
    Either.mapLeft(
      (error) =>
        new ConfigError({ reason: "InvalidValue", message: formatParseIssues(error, render, typoFor(findings)) }),
    ),
  )

const readText = (path: string, what: string) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (cause) => {
      const code = (cause as NodeJS.ErrnoException).code
      const why = code === "ENOENT" ? "no such file (ENOENT)" : code === "EACCES" ? "permission denied (EACCES)" : code
      return new ConfigError({
        reason: "FileNotFound",
        message: `${what} ${resolve(path)} cannot be read: ${why ?? String(cause)}`,
      })
    },
  })

/** A character a terminal would act on (ESC, BEL, CR, C1 controls, …), written as an escape instead. */
const escapeUnprintable = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is escaped
  text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === "\t" ? "\\t" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  )

/** `file:line:column: what is wrong`, then the parser's excerpt with a caret under the spot. */
const tomlSyntaxError = (path: string, error: unknown) => {
  if (!(error instanceof TomlError)) {
    return new ConfigError({
      reason: "TomlSyntax",
      message: `${path}: not valid TOML: ${escapeUnprintable(String(error))}`,
    })
  }
  const what = (error.message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "")
  return new ConfigError({
    reason: "TomlSyntax",
    message: `${path}:${error.line}:${error.column}: not valid TOML: ${escapeUnprintable(what)}\n${escapeUnprintable(error.codeblock.trimEnd())}`,
  })
}

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const EVAL_KEYS = Object.keys(EvalTomlSection.fields)

const loadToml = Effect.fn("loadEvalConfig.toml")(function* (path: string) {
  const text = yield* readText(path, "config file")
  const document = yield* Effect.try({
    try: () => parseToml(text) as Record<string, unknown>,
    catch: (e) => tomlSyntaxError(path, e),
  })
  const inEvalTable = isTable(document.eval)
  const raw = inEvalTable ? (document.eval as Record<string, unknown>) : document
  const prefix = inEvalTable ? "eval" : ""
  const judges = yield* Either.mapLeft(
    synthAiJudges(raw, prefix === "" ? "" : `${prefix}.`),
    (message) => new ConfigError({ reason: "InvalidValue", message: `${path}: ${message}` }),
  )
  const render = (p: ReadonlyArray<PropertyKey>) => renderPath(prefix, p)
  const graderFindings = reviewGraderKeys(judges.section.graders, ["graders"], render)
  const judgeFindings = reviewJudgeKeys(judges.section.judge, ["judge"], render)
  const section = yield* decodeSection(judges.section, (p) => `${path}: ${render(p)}`, [
    ...graderFindings,
    ...judgeFindings,
  ])
  const inFile = (finding: KeyFinding): KeyFinding => ({ ...finding, message: `${path}: ${finding.message}` })
  const findings = [
    ...reviewConfigKeys(document, [...EVAL_KEYS, "judges"]),
    ...graderFindings,
    ...judgeFindings,
    ...(judges.note === null ? [] : [{ severity: "unused" as const, message: judges.note }]),
  ].map(inFile)
  /** Where the file sets one of `keys` outside the table proctor reads: the likely cause when it is missing. */
  const setElsewhere = (keys: ReadonlyArray<string>) => {
    const paths = locateKeys(document, keys, raw)
    return paths.length === 0 ? null : `${path}: ${paths.join(", ")} is not read: put it in the [eval] table itself`
  }
  return {
    section,
    findings,
    graderFindings: graderFindings.map(inFile),
    judgeFindings: judgeFindings.map(inFile),
    setElsewhere,
  }
})

/** Unknown keys are warnings, or one error naming them all when the run is strict. */
const applyStrictness = (findings: ReadonlyArray<KeyFinding>, strict: boolean) => {
  const unknown = findings.filter((f) => f.severity === "unknown")
  return strict && unknown.length > 0
    ? Either.left(
        new ConfigError({
          reason: "InvalidValue",
          message: `${unknown.map((f) => f.message).join("\n")}\n(strict: unknown keys are errors; drop --strict or strict = true to run with warnings)`,
        }),
      )
    : Either.right(findings.map((f) => f.message))
}

/**
 * Flags are checked against the same rules as the TOML keys, named as flags, and so are the keys of their grader
 * specs and judge (`findings`). The inference URL is not a key of `[eval]` (it belongs in its policy_config), so it
 * is kept aside.
 */
const decodeFlags = (flags: EvalFlags) =>
  Schema.decodeUnknownEither(EndpointFlags, { errors: "all" })(flags).pipe(
    Either.mapLeft((error) => new ConfigError({ reason: "InvalidValue", message: formatParseIssues(error, flagName) })),
    Either.flatMap((endpoint) =>
      Either.flatMap(judgeTableOf(flags), (judge) => {
        const raw = judge === undefined ? flags : { ...flags, judge }
        const findings = specKeyFindings(raw, flagName)
        return Either.map(decodeSection(raw, flagName, findings), (section) => ({
          section: { ...section, inference_url: endpoint.inference_url },
          findings,
        }))
      }),
    ),
  )

/** `--judge`'s inline table, read: a value that is not one is a line naming the flag. */
const judgeTableOf = (flags: EvalFlags): Either.Either<unknown, ConfigError> => {
  if (typeof flags.judge !== "string") return Either.right(flags.judge)
  try {
    return Either.right(parseInlineTable(flags.judge))
  } catch (error) {
    return Either.left(new ConfigError({ reason: "InvalidValue", message: `--judge: ${(error as Error).message}` }))
  }
}

/** The model endpoint of a command that takes only `--inference-url` and `--provider` (`task-app check`). */
export const endpointFromFlags = (
  flags: Pick<EvalFlags, "inference_url" | "provider">,
  env: Readonly<Record<string, string | undefined>>,
) =>
  Schema.decodeUnknownEither(EndpointFlags, { errors: "all" })(flags).pipe(
    Either.mapLeft((error) => new ConfigError({ reason: "InvalidValue", message: formatParseIssues(error, flagName) })),
    Either.map((parsed) => resolveModelEndpoint({ flagUrl: parsed.inference_url, flagProvider: parsed.provider, env })),
  )

/** The process environment with an `--env-file`'s variables laid over it. */
export const loadEnv = Effect.fn("loadEvalConfig.env")(function* (sources: Pick<EvalConfigSources, "envFile" | "env">) {
  const base = sources.env ?? {}
  if (sources.envFile === undefined) return base
  const text = yield* readText(sources.envFile, "env file")
  const vars = yield* Either.mapLeft(
    parseEnvFile(text),
    (problem) => new ConfigError({ reason: "EnvFile", message: `${sources.envFile}: ${problem}` }),
  )
  return { ...base, ...vars }
})

/**
 * What a resume is given besides its run directory: the task-app key and the secrets, which are never
 * written to the run directory, and every setting of the flags and the config file, each named as the user
 * gave it, for `resumedConfig` to check against the run's plan (see `applyResumeSettings`). `env` is the environment with the
 * `--env-file` laid over it, read here once.
 */
export const loadResumeSettings = Effect.fn("loadEvalConfig.resume")(function* (
  sources: Pick<EvalConfigSources, "envFile" | "env" | "flags" | "configPath">,
) {
  const env = yield* loadEnv(sources)
  const { section: flags, findings: flagFindings } = yield* decodeFlags(sources.flags ?? {})
  const file = sources.configPath === undefined ? null : yield* loadToml(sources.configPath)
  const fromFile = file?.section ?? {}
  const warnings = yield* applyStrictness(
    [...(file?.findings ?? []), ...flagFindings],
    flags.strict ?? fromFile.strict ?? false,
  )
  const apiKey = fromFile.task_app_api_key ?? env.ENVIRONMENT_API_KEY
  return {
    apiKey,
    warnings,
    env,
    secrets: {
      policy_config: splitSecrets(fromFile.policy_config ?? {}, "policy_config").secrets,
      env_config: splitSecrets(fromFile.env_config ?? {}, "env_config").secrets,
    },
    settings: [
      ...resumeSettingsOf(fromFile, (key) => `${key} in ${sources.configPath}`),
      ...resumeSettingsOf(flags, (key) => flagName([key])),
    ],
  }
})

/** The run's agent limits, those given (flags over the file); absent ones are no limit. */
const limitsOf = (merged: EvalTomlSection) => {
  const limits = {
    max_turns: merged.max_turns,
    max_tokens: merged.max_tokens,
    max_cost: merged.max_cost,
    agent_timeout_s: merged.agent_timeout,
    verifier_timeout_s: merged.verifier_timeout,
  }
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as Partial<
    Pick<EvalRunConfig, "max_turns" | "max_tokens" | "max_cost" | "agent_timeout_s" | "verifier_timeout_s">
  >
}

/** The response cache and the run's budgets, those given. */
const savingKeys = (merged: EvalTomlSection) => {
  const keys = {
    cache: merged.cache,
    cache_dir: merged.cache_dir,
    max_run_cost: merged.max_run_cost,
    max_run_tokens: merged.max_run_tokens,
  }
  return Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== undefined)) as Partial<
    Pick<EvalRunConfig, keyof typeof keys>
  >
}

const stringOrUndefined = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

/** Stands where a task app's URL would in an agent run's config: `harbor:` and the tasks' directory. */
export const HARBOR_URL_PREFIX = "harbor:"

/** Stands where a task app's URL would in a dataset run's config: `dataset:` and the file's path. */
export const DATASET_URL_PREFIX = "dataset:"

/** The dataset and grader keys a config holds only when they were given. */
const datasetKeys = (merged: EvalTomlSection) => {
  const keys = {
    dataset: merged.dataset,
    prompt: merged.prompt,
    system: merged.system,
    tools: merged.tools,
    graders: merged.graders,
    from_promptfoo: merged.from_promptfoo,
    from_openai_evals: merged.from_openai_evals,
    data: merged.data,
    variants: merged.variants,
  }
  return Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== undefined)) as Pick<
    EvalRunConfig,
    keyof typeof keys
  >
}

/** The agent-run keys a config holds only when they were given (task-app runs record none of them). */
const agentKeys = (merged: EvalTomlSection) => {
  const keys = {
    tasks: merged.tasks,
    agent: merged.agent,
    agent_config: merged.agent_config,
    sandbox: merged.sandbox ?? (merged.tasks === undefined ? undefined : ("docker" as const)),
  }
  return Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== undefined)) as Pick<
    EvalRunConfig,
    keyof typeof keys
  >
}

/**
 * Resolves an eval run from its sources. Precedence: flags, then the config file, then the environment
 * (`ENVIRONMENT_API_KEY`; `OPENAI_BASE_URL` for the model endpoint), then proctor's defaults. `warnings`
 * name the file's keys proctor will not read (`--strict` or `strict = true` makes them an error instead);
 * the caller decides how to show them.
 */
export const loadEvalConfig = Effect.fn("loadEvalConfig")(function* (sources: EvalConfigSources) {
  const file = sources.configPath === undefined ? null : yield* loadToml(sources.configPath)
  const fromFile = file?.section ?? {}
  const { section: fromFlags, findings: flagFindings } = yield* decodeFlags(sources.flags ?? {})
  const env = yield* loadEnv(sources)
  // An eval imported from another tool's files gives its name, model, settings and seeds under the file's and flags'.
  const imported = yield* importedSettings({ ...fromFile, ...fromFlags })
  const merged = {
    ...imported?.section,
    ...fromFile,
    ...fromFlags,
    ...(imported === null ? {} : { policy_config: { ...imported.section.policy_config, ...fromFile.policy_config } }),
  }
  const warnings = yield* applyStrictness([...(file?.findings ?? []), ...flagFindings], merged.strict ?? false)
  const missing = (what: string, keys: ReadonlyArray<string>) => {
    const misplaced = file?.setElsewhere(keys) ?? null
    return new ConfigError({
      reason: "Missing",
      message:
        misplaced === null
          ? `no ${what}: set eval.${keys[0]} in the config file or pass --${keys[0]}`
          : `${misplaced}, or pass --${keys[0]}`,
    })
  }

  // An agent run's "task app" is its directory of Harbor tasks, and its seeds are the tasks' indices; a dataset
  // run's is its file, and its seeds are the rows' indices.
  const url =
    merged.tasks !== undefined
      ? `${HARBOR_URL_PREFIX}${merged.tasks}`
      : merged.dataset !== undefined
        ? `${DATASET_URL_PREFIX}${merged.dataset}`
        : (imported?.url ?? merged.url ?? merged.task_app_url)
  if (url === undefined) return yield* missing("task app URL", ["url", "task_app_url"])
  if (merged.tasks !== undefined && merged.agent === undefined) return yield* missing("agent", ["agent"])
  // A grid whose every variant has its prompt needs none of the run's own.
  const promptsOfVariants = merged.variants?.every((variant) => variant.prompt !== undefined) ?? false
  if (merged.dataset !== undefined && merged.prompt === undefined && !promptsOfVariants) {
    return yield* missing("prompt", ["prompt"])
  }
  if (merged.dataset !== undefined && merged.graders === undefined) {
    return yield* new ConfigError({
      reason: "Missing",
      message: "no graders: add [[eval.graders]] tables to the config file or pass --grader",
    })
  }
  const seeds =
    merged.seeds ??
    (merged.tasks !== undefined
      ? yield* harborTaskSeeds(merged.tasks)
      : merged.dataset !== undefined
        ? (yield* loadDataset(merged.dataset)).rows.map((_, index) => index)
        : undefined)
  if (seeds === undefined) return yield* missing("seeds", ["seeds"])
  const attempts = merged.attempts ?? defaults.attempts
  if (seeds.length * attempts > MAX_ROLLOUTS) {
    return yield* new ConfigError({
      reason: "InvalidValue",
      message: `${seeds.length} seeds × ${attempts} attempts is ${seeds.length * attempts} rollouts: a run plans at most ${MAX_ROLLOUTS} (fewer --seeds or --attempts)`,
    })
  }
  const apiKey = merged.task_app_api_key ?? env.ENVIRONMENT_API_KEY
  const model = merged.model ?? null
  const policyConfig = { ...(merged.policy_config ?? {}) }
  if (model !== null && policyConfig.model === undefined) policyConfig.model = model
  const endpoint = resolveModelEndpoint({
    flagUrl: fromFlags.inference_url,
    flagProvider: fromFlags.provider,
    fileUrl: stringOrUndefined(policyConfig.inference_url),
    fileProvider: fromFile.provider ?? stringOrUndefined(policyConfig.provider),
    env,
  })
  if (endpoint !== null) policyConfig.inference_url = endpoint.inferenceUrl

  const config: EvalRunConfig = {
    // A dataset run is named after its file (`questions-20261127-…`) unless it is given a name.
    app_id: merged.app_id ?? (merged.dataset === undefined ? null : basename(merged.dataset).replace(/\.[^.]+$/, "")),
    task_app_url: url,
    task_app_api_key: apiKey === undefined || apiKey === "" ? null : Redacted.make(apiKey),
    env_name: merged.env_name ?? null,
    seeds,
    attempts,
    concurrency: merged.concurrency ?? defaults.concurrency,
    timeout_s: merged.timeout ?? defaults.timeout_s,
    max_retries: merged.max_retries ?? defaults.max_retries,
    return_trace: merged.return_trace ?? (merged.traces_dir !== undefined || defaults.return_trace),
    trace_format: merged.trace_format ?? defaults.trace_format,
    model,
    provider: merged.provider ?? endpoint?.provider ?? null,
    policy_name: merged.policy_name ?? null,
    policy_config: policyConfig,
    env_config: merged.env_config ?? {},
    ops: merged.ops ?? null,
    pass_threshold: merged.pass_threshold ?? defaults.pass_threshold,
    ...(merged.cluster_by === undefined ? {} : { cluster_by: merged.cluster_by }),
    ...(merged.judge === undefined ? {} : { judge: merged.judge }),
    max_response_bytes: merged.max_response_bytes ?? defaults.max_response_bytes,
    ...agentKeys(merged),
    ...datasetKeys(merged),
    ...limitsOf(merged),
    ...savingKeys(merged),
  }
  return {
    config,
    tracesDir: merged.traces_dir ?? null,
    runDir: merged.run_dir ?? null,
    backendUrl: merged.backend_url ?? null,
    env,
    warnings,
  }
})

/**
 * What `proctor grade` is given: its graders, `--grader` or else a config file's `[[eval.graders]]` tables, and their
 * judge, `--judge` or else the file's `[eval.judge]` (neither: the run's own), read and checked as `proctor eval`
 * reads them; the file's other keys are not read. `warnings` name the keys of the graders and judge read that proctor
 * does not read. No graders is a problem naming where they were looked for.
 */
export const loadGradeSettings = Effect.fn("loadEvalConfig.grade")(function* (sources: {
  readonly graders?: ReadonlyArray<string> | undefined
  readonly judge?: string | undefined
  readonly configPath?: string | undefined
}) {
  const { section: flags, findings: flagFindings } = yield* decodeFlags({
    ...(sources.graders === undefined ? {} : { graders: sources.graders }),
    ...(sources.judge === undefined ? {} : { judge: sources.judge }),
  })
  const file = sources.configPath === undefined ? null : yield* loadToml(sources.configPath)
  const specs = flags.graders ?? file?.section.graders
  if (specs === undefined) {
    return yield* new ConfigError({
      reason: "Missing",
      message:
        file === null
          ? "no graders: pass --grader, or --config with a file of [[eval.graders]] tables"
          : (file.setElsewhere(["graders"]) ?? `${sources.configPath}: no graders: add [[eval.graders]] tables`),
    })
  }
  // Only what is read is warned about: the file's graders when no --grader replaces them, its judge when no --judge does.
  const fileFindings = [
    ...(flags.graders === undefined ? (file?.graderFindings ?? []) : []),
    ...(flags.judge === undefined ? (file?.judgeFindings ?? []) : []),
  ]
  const warnings = yield* applyStrictness([...fileFindings, ...flagFindings], file?.section.strict ?? false)
  return { specs, judge: flags.judge ?? file?.section.judge, warnings }
})
