import type { AddressInfo } from "node:net"
import { listeningUrl } from "@proctor/core"
import { Either } from "effect"
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from "fastify"
import { environmentApiKeys } from "./environmentApiKeys.js"
import { makeKeyCheck } from "./internal/auth.js"
import { buildRolloutResponse } from "./internal/buildRolloutResponse.js"
import { decodeRolloutRequest } from "./internal/decodeRolloutRequest.js"
import { HandlerFailed } from "./internal/HandlerFailed.js"
import { missingField } from "./internal/missingField.js"
import { seedsOf } from "./internal/seedsOf.js"
import { traceCorrelationIdOf } from "./internal/traceCorrelationIdOf.js"
import type { ListenOptions, RolloutResult, TaskApp, TaskAppDefinition } from "./TaskAppDefinition.js"
import { errorEnvelope, TaskAppHttpError } from "./TaskAppHttpError.js"
import { TaskAppSetupError } from "./TaskAppSetupError.js"

const BODY_LIMIT_BYTES = 16 * 1024 * 1024
const JSON_BODY_ERRORS = new Set(["FST_ERR_CTP_INVALID_JSON_BODY", "FST_ERR_CTP_EMPTY_JSON_BODY"])

const allowedKeys = (apiKey: TaskAppDefinition["apiKey"]): string[] =>
  apiKey === undefined ? environmentApiKeys() : typeof apiKey === "string" ? [apiKey] : [...apiKey]

/** A handler that resolves to something without a finite score would otherwise reach the wire as `null`. */
const checkResult = (result: RolloutResult): RolloutResult => {
  if (
    typeof result !== "object" ||
    result === null ||
    typeof result.score !== "number" ||
    !Number.isFinite(result.score)
  ) {
    throw new TaskAppHttpError({
      status: 500,
      code: "invalid_rollout_result",
      message: "the rollout handler must resolve to { score: <finite number>, … }",
    })
  }
  return result
}

/** Handlers may throw anything; a name and a message are what a caller can act on. */
const describeThrown = (thrown: unknown): string => {
  if (thrown instanceof Error) return `${thrown.name}: ${thrown.message}`
  try {
    return `a non-Error value: ${JSON.stringify(thrown) ?? String(thrown)}`
  } catch {
    return `a non-Error value: ${String(thrown)}`
  }
}

/** Runs a handler, so that whatever it throws that is not a chosen HTTP answer becomes a named 500. */
const runHandler = async <A>(handler: string, run: () => A | Promise<A>, signal?: AbortSignal): Promise<A> => {
  try {
    return await run()
  } catch (error) {
    if (error instanceof TaskAppHttpError) throw error
    throw new HandlerFailed(handler, describeThrown(error), error, signal?.aborted === true)
  }
}

/**
 * Serves a task app on synth-ai's contract: `GET /` (open), and `GET /health`, `GET /info`,
 * `GET /task_info`, `POST /rollout` behind the environment API key. Errors never crash the server:
 * a bad body is a 422 naming each wrong field (FastAPI's shape), a missing required field a 400 naming it,
 * a failing handler a JSON 500 naming the failure, with its stack logged.
 *
 * Throws `TaskAppSetupError` when no key is configured and `auth: "none"` does not say that is intended.
 */
export const createTaskApp = (definition: TaskAppDefinition): TaskApp => {
  const keys = allowedKeys(definition.apiKey)
  const requireApiKey = definition.auth !== "none"
  if (requireApiKey && keys.length === 0) {
    throw new TaskAppSetupError(
      `task app "${definition.appId}" has no API key to check: set ENVIRONMENT_API_KEY, pass apiKey, ` +
        `or pass auth: "none" to serve every caller without one`,
    )
  }
  if (!requireApiKey) {
    process.emitWarning(`task app "${definition.appId}" serves every caller without a key (auth: "none")`, {
      code: "PROCTOR_TASK_APP_NO_AUTH",
    })
  }
  const keyCheck = makeKeyCheck(keys)
  const requires = definition.requires ?? []
  const loggerOn = definition.logger !== undefined && definition.logger !== false
  const task = {
    id: definition.appId,
    name: definition.name,
    description: definition.description ?? null,
    version: definition.version ?? null,
  }
  const baseTaskInfo = {
    task,
    environment: definition.appId,
    dataset: definition.dataset ?? {},
    rubric: definition.rubrics ?? {},
    inference: definition.inference ?? {},
    limits: definition.limits ?? {},
  }
  const taskInfo = definition.taskInfo ?? ((seed: number) => ({ task_metadata: { seed } }))

  const app = Fastify({ logger: definition.logger ?? false, bodyLimit: BODY_LIMIT_BYTES })

  /** With fastify's logger off (the default) a failure's stack still has to reach the app's author. */
  const logFailure = (request: FastifyRequest, error: Error, message: string) => {
    if (loggerOn) request.log.error({ err: error }, message)
    else process.stderr.write(`${definition.appId}: ${message}\n${error.stack ?? String(error)}\n`)
  }

  const authorise = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!requireApiKey) return
    // 400 rather than 401 because synth-ai answers so, and its clients (and proctor's) read it as "bad key".
    if (!keyCheck(request.headers)) {
      return reply.code(400).send(errorEnvelope("unauthorised", "API key missing or invalid"))
    }
  }

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: "Not Found" }))

  app.setErrorHandler((error: FastifyError | TaskAppHttpError | HandlerFailed, request, reply) => {
    if (error instanceof TaskAppHttpError) {
      return reply.code(error.status).headers(error.headers).send(errorEnvelope(error.code, error.message))
    }
    if (error instanceof HandlerFailed) {
      const thrown = error.cause instanceof Error ? error.cause : error
      if (!error.callerGone) logFailure(request, thrown, `${request.method} ${request.url}: ${error.message}`)
      return reply.code(500).send(errorEnvelope(`${error.handler}_failed`, error.message))
    }
    if (JSON_BODY_ERRORS.has(error.code)) {
      return reply.code(422).send({ detail: [{ type: "json_invalid", loc: ["body"], msg: error.message }] })
    }
    const status = error.statusCode ?? 500
    if (error.code?.startsWith("FST_") && status >= 400 && status < 500) {
      return reply.code(status).send(errorEnvelope(error.code.toLowerCase(), error.message))
    }
    logFailure(request, error, `${request.method} ${request.url} failed`)
    return reply.code(500).send(errorEnvelope("internal_error", error.message))
  })

  app.get("/", async () => ({ status: "ok", service: definition.appId }))

  app.get("/health", { onRequest: authorise }, async () => ({
    healthy: true,
    status: "healthy",
    service: definition.appId,
    auth: { required: requireApiKey },
  }))

  app.get("/info", { onRequest: authorise }, async () => ({
    service: { task, version: task.version, app_id: definition.appId },
    dataset: definition.dataset ?? null,
    rubrics: definition.rubrics ?? null,
    inference: definition.inference ?? null,
    limits: definition.limits ?? null,
    taskset: definition.taskset,
  }))

  app.get("/task_info", { onRequest: authorise }, async (request, reply) => {
    const seeds = seedsOf(request.query as Record<string, unknown>)
    if (Either.isLeft(seeds)) return reply.code(422).send({ detail: seeds.left })
    if (seeds.right.length === 0) return { taskset: definition.taskset }
    const infos = await Promise.all(
      seeds.right.map(async (seed) => ({ ...baseTaskInfo, ...(await runHandler("task_info", () => taskInfo(seed))) })),
    )
    return infos.length === 1 ? infos[0] : infos
  })

  app.post("/rollout", { onRequest: authorise }, async (request, reply) => {
    const decoded = decodeRolloutRequest(request.body)
    if (Either.isLeft(decoded)) return reply.code(422).send({ detail: decoded.left })
    const missing = missingField(decoded.right, requires)
    if (missing !== undefined) {
      const body = errorEnvelope("missing_field", `${missing} is required by this task app`)
      return reply.code(400).send({ detail: { error: { ...body.detail.error, field: missing } } })
    }
    const traceCorrelationId = traceCorrelationIdOf(decoded.right)
    const rolloutRequest = { ...decoded.right, run_id: decoded.right.run_id ?? traceCorrelationId }
    const controller = new AbortController()
    const onClose = () => {
      if (!reply.raw.writableFinished) controller.abort()
    }
    reply.raw.once("close", onClose)
    try {
      const result = checkResult(
        await runHandler(
          "rollout",
          () => definition.rollout(rolloutRequest, { signal: controller.signal, traceCorrelationId, log: request.log }),
          controller.signal,
        ),
      )
      return buildRolloutResponse({ appId: definition.appId, request: rolloutRequest, result, traceCorrelationId })
    } finally {
      reply.raw.off("close", onClose)
    }
  })

  const listen = async (options: ListenOptions = {}) => {
    await app.listen({ port: options.port ?? 0, host: options.host ?? "127.0.0.1" })
    return { url: listeningUrl(app.server.address() as AddressInfo), close: () => app.close() }
  }

  return { app, listen }
}
