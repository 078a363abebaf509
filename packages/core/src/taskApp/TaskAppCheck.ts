import { Clock, Effect, Either, Option, type Redacted } from "effect"
import { defaults, type EvalRunConfig } from "../config/EvalRunConfig.js"
import { formatParseIssues, renderPath } from "../internal/formatIssues.js"
import { headerValue } from "../internal/headerValue.js"
import { acceptedRolloutOf } from "./AsyncRolloutWire.js"
import { awaitAsyncRollout } from "./awaitAsyncRollout.js"
import { firstPollDelayMs } from "./PollSchedule.js"
import { metricsOf, scoreOf } from "./RolloutOutcome.js"
import { buildRolloutRequest, makeRolloutId } from "./RolloutRequestBuilder.js"
import { classifyResponse, type RawResponse, TaskAppClient } from "./TaskAppClient.js"
import { decodeRolloutResponse } from "./TaskAppWire.js"

export interface CheckFinding {
  readonly check: string
  /** `skip`: not checked, for the reason in `detail` (not a deviation). */
  readonly status: "pass" | "fail" | "warn" | "skip"
  readonly detail: string
}

export interface TaskAppCheckOptions {
  readonly url: string
  readonly apiKey: Redacted.Redacted<string> | null
  readonly seed?: number
  /** Policy for the one test rollout. */
  readonly model?: string | null
  /** The model endpoint for the test rollout; without one the rollout is skipped, not failed. */
  readonly inferenceUrl?: string | null
  readonly timeoutMs?: number
}

const pass = (check: string, detail: string): CheckFinding => ({ check, status: "pass", detail })
const fail = (check: string, detail: string): CheckFinding => ({ check, status: "fail", detail })
const warn = (check: string, detail: string): CheckFinding => ({ check, status: "warn", detail })
const skip = (check: string, detail: string): CheckFinding => ({ check, status: "skip", detail })

const parseJson = (raw: RawResponse): unknown => {
  try {
    return JSON.parse(raw.text)
  } catch {
    return undefined
  }
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The check that fails when the task app refuses the key: the others are then skipped, not failed. */
export const KEY_CHECK = "task-app key"

const isRefusal = (raw: RawResponse): boolean => {
  const classified = classifyResponse("GET /health", raw)
  return Either.isLeft(classified) && classified.left.reason === "Unauthorized"
}

const LEGACY_METRICS = ["episode_returns", "mean_return", "num_steps", "outcome_score"] as const
const NEW_METRICS = ["outcome_reward", "reward_mean"] as const

/**
 * Checks a task app against the synth-ai contract: each endpoint, the auth rules and one rollout. Every
 * deviation is reported in plain words; nothing stops at the first problem, except a key the app refuses:
 * every later check would fail for that one cause, so it is reported once.
 */
export const checkTaskApp = Effect.fn("TaskAppCheck.check")(function* (options: TaskAppCheckOptions) {
  const client = yield* TaskAppClient
  const findings: Array<CheckFinding> = []
  const add = (f: CheckFinding) => findings.push(f)
  const get = (path: string, auth = true) => Effect.either(client.request("GET", path, { auth }))

  const root = yield* get("/", false)
  if (Either.isLeft(root)) {
    add(fail("GET /", `the task app is not reachable: ${root.left.message}`))
    return findings
  }
  add(
    root.right.status === 200
      ? pass("GET /", "answers without a key")
      : fail("GET /", `answered ${root.right.status}, expected 200 without a key`),
  )

  const health = yield* get("/health")
  if (Either.isRight(health) && isRefusal(health.right)) {
    const answered = `GET /health answered ${health.right.status}`
    add(
      fail(
        KEY_CHECK,
        options.apiKey === null
          ? `the task app requires a key (${answered}) and none was given: set ENVIRONMENT_API_KEY or pass --api-key`
          : `the task app refused the key given (${answered}): check ENVIRONMENT_API_KEY or --api-key`,
      ),
    )
    add(skip("the other checks", "they need a key the task app accepts"))
    return findings
  }
  if (Either.isRight(health)) {
    const body = parseJson(health.right)
    if (health.right.status !== 200) add(fail("GET /health", `answered ${health.right.status}, expected 200`))
    else if (!isObject(body)) add(fail("GET /health", "the body is not a JSON object"))
    else add(pass("GET /health", `healthy=${String(body.healthy ?? body.status ?? "?")}`))
  } else add(fail("GET /health", health.left.message))

  if (options.apiKey !== null) {
    const anonymous = yield* get("/health", false)
    if (Either.isRight(anonymous)) {
      const classified = classifyResponse("GET /health", anonymous.right)
      if (Either.isRight(classified))
        add(warn("auth", "GET /health answers without an API key; anyone can use this task app"))
      else if (classified.left.reason === "Unauthorized")
        add(pass("auth", `a request without a key is refused (${anonymous.right.status})`))
      else
        add(fail("auth", `a request without a key got ${anonymous.right.status}, expected 400 "unauthorised" or 401`))
    }
  } else add(warn("auth", "no API key given (ENVIRONMENT_API_KEY or --api-key): auth rules not checked"))

  const info = yield* get("/info")
  if (Either.isRight(info)) {
    const body = parseJson(info.right)
    if (info.right.status !== 200 || !isObject(body))
      add(fail("GET /info", `answered ${info.right.status} without a JSON object`))
    else {
      const missing = ["service", "dataset"].filter((k) => !(k in body))
      add(
        missing.length === 0
          ? pass("GET /info", "has service and dataset")
          : warn("GET /info", `lacks ${missing.join(", ")}`),
      )
    }
  } else add(fail("GET /info", info.left.message))

  const seed = options.seed ?? 0
  const taskset = yield* get("/task_info")
  if (Either.isRight(taskset)) {
    const body = parseJson(taskset.right)
    add(
      taskset.right.status === 200 && isObject(body) && "taskset" in body
        ? pass("GET /task_info", 'without seeds answers {"taskset": …}')
        : fail("GET /task_info", `without seeds should answer 200 {"taskset": …}, got ${taskset.right.status}`),
    )
  }
  const one = yield* get(`/task_info?seed=${seed}`)
  if (Either.isRight(one)) {
    const body = parseJson(one.right)
    add(
      one.right.status === 200 && isObject(body)
        ? pass("GET /task_info?seed", "one seed answers one object")
        : fail(
            "GET /task_info?seed",
            `one seed should answer one JSON object, got ${one.right.status} ${Array.isArray(body) ? "a list" : ""}`,
          ),
    )
  }
  const two = yield* get(`/task_info?seed=${seed}&seed=${seed + 1}`)
  if (Either.isRight(two)) {
    const body = parseJson(two.right)
    add(
      two.right.status === 200 && Array.isArray(body) && body.length === 2
        ? pass("GET /task_info?seed&seed", "two seeds answer a list of two")
        : fail("GET /task_info?seed&seed", `two seeds should answer a list of two, got ${two.right.status}`),
    )
  }

  if (!options.inferenceUrl) {
    add(skip("POST /rollout", "no model endpoint to call: pass --inference-url URL or --provider NAME"))
    return findings
  }
  const config: EvalRunConfig = {
    ...defaults,
    app_id: null,
    task_app_url: options.url,
    task_app_api_key: options.apiKey,
    env_name: null,
    seeds: [seed],
    timeout_s: (options.timeoutMs ?? 60_000) / 1000,
    model: options.model ?? null,
    provider: null,
    policy_name: null,
    policy_config: {
      ...(options.model ? { model: options.model } : {}),
      inference_url: options.inferenceUrl,
    },
    env_config: {},
    ops: null,
    return_trace: true,
  }
  const rolloutId = makeRolloutId(config, seed)
  const rollout = yield* Effect.either(
    client.request("POST", "/rollout", { body: buildRolloutRequest(config, { seed, attempt: 0 }, rolloutId) }),
  )
  if (Either.isLeft(rollout)) {
    add(fail("POST /rollout", rollout.left.message))
    return findings
  }
  const classified = classifyResponse("POST /rollout", rollout.right)
  if (Either.isLeft(classified)) {
    add(fail("POST /rollout", classified.left.message))
    return findings
  }
  const accepted = acceptedRolloutOf(
    rollout.right.status,
    classified.right,
    headerValue(rollout.right.headers.location),
    new URL(options.url).pathname.replace(/\/+$/, ""),
  )
  if (Option.isSome(accepted) && Either.isLeft(accepted.value)) {
    add(fail("POST /rollout", accepted.value.left))
    return findings
  }
  let answer: unknown = classified.right
  if (Option.isSome(accepted) && Either.isRight(accepted.value)) {
    const { appRolloutId, statusPath, retryAfterMs } = accepted.value.right
    add(pass("POST /rollout", `the async form: rollout ${appRolloutId}, polled at ${statusPath}`))
    const pending = { appRolloutId, statusPath, acceptedAtMs: yield* Clock.currentTimeMillis }
    const settled = yield* Effect.either(
      awaitAsyncRollout({ client, pending, timeoutS: config.timeout_s, firstDelayMs: firstPollDelayMs(retryAfterMs) }),
    )
    if (Either.isLeft(settled) || settled.right._tag !== "Done") {
      const why = Either.isLeft(settled)
        ? settled.left.message
        : settled.right._tag === "Unknown"
          ? `the app answered 404 for ${statusPath}`
          : "the app stopped the rollout"
      add(fail(`GET ${statusPath}`, why))
      return findings
    }
    answer = settled.right.response
  }
  const decoded = decodeRolloutResponse(answer)
  if (Either.isLeft(decoded)) {
    add(
      fail(
        "POST /rollout",
        `the response does not match the contract: ${formatParseIssues(decoded.left, (p) => renderPath("", p))}`,
      ),
    )
    return findings
  }
  const response = decoded.right
  add(
    response.run_id === rolloutId
      ? pass("rollout run_id", "echoed")
      : fail("rollout run_id", `expected "${rolloutId}", got ${JSON.stringify(response.run_id)}`),
  )
  add(
    response.trace_correlation_id === rolloutId
      ? pass("rollout trace_correlation_id", "echoed")
      : warn("rollout trace_correlation_id", "not echoed; newer synth-ai clients correlate traces by it"),
  )
  const metrics = metricsOf(response)
  if (metrics === undefined) add(fail("rollout metrics", "neither metrics nor reward_info is present"))
  else {
    const score = scoreOf(metrics)
    add(
      score === null
        ? fail(
            "rollout score",
            "no outcome_objectives.reward, outcome_reward, outcome_score, reward_mean or mean_return",
          )
        : pass("rollout score", `score ${score}`),
    )
    const lacksLegacy = LEGACY_METRICS.filter((k) => metrics[k] === undefined)
    const lacksNew = NEW_METRICS.filter((k) => metrics[k] === undefined)
    if (lacksLegacy.length > 0)
      add(warn("legacy metric names", `missing ${lacksLegacy.join(", ")}: older synth-ai clients read these`))
    if (lacksNew.length > 0)
      add(warn("new metric names", `missing ${lacksNew.join(", ")}: newer synth-ai clients read these`))
  }
  add(
    Array.isArray(response.trajectories) && response.trajectories.length > 0
      ? pass("rollout trajectories", `${response.trajectories.length} trajectory(ies)`)
      : warn("rollout trajectories", "none returned"),
  )
  add(
    response.trace === undefined || response.trace === null
      ? warn("rollout trace", "no trace although return_trace was true")
      : pass("rollout trace", "returned"),
  )
  return findings
})
