import type { AddressInfo } from "node:net"
import { Either } from "effect"
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from "fastify"
import { environmentApiKeys } from "./environmentApiKeys.js"
import { makeKeyCheck } from "./internal/auth.js"
import { buildRolloutResponse } from "./internal/buildRolloutResponse.js"
import { decodeRolloutRequest } from "./internal/decodeRolloutRequest.js"
import { seedsOf } from "./internal/seedsOf.js"
import { traceCorrelationIdOf } from "./internal/traceCorrelationIdOf.js"
import type { ListenOptions, RolloutResult, TaskApp, TaskAppDefinition } from "./TaskAppDefinition.js"
import { errorEnvelope, TaskAppHttpError } from "./TaskAppHttpError.js"

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

const urlOf = (address: AddressInfo) => {
  const host = address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "::1" : address.address
  return `http://${address.family === "IPv6" ? `[${host}]` : host}:${address.port}`
}

/**
 * Serves a task app on synth-ai's contract: `GET /` (open), and `GET /health`, `GET /info`,
 * `GET /task_info`, `POST /rollout` behind the environment API key. Errors never crash the server:
 * a bad body is a 422 naming each wrong field (FastAPI's shape), a failing handler a JSON 500.
 */
export const createTaskApp = (definition: TaskAppDefinition): TaskApp => {
  const keys = allowedKeys(definition.apiKey)
  const requireApiKey = definition.requireApiKey ?? true
  const keyCheck = makeKeyCheck(keys)
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

  const authorise = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!requireApiKey) return
    if (keys.length === 0) {
      return reply.code(503).send(errorEnvelope("missing_environment_api_key", "ENVIRONMENT_API_KEY is not configured"))
    }
    // 400 rather than 401 because synth-ai answers so, and its clients (and proctor's) read it as "bad key".
    if (!keyCheck(request.headers)) {
      return reply.code(400).send(errorEnvelope("unauthorised", "API key missing or invalid"))
    }
  }

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: "Not Found" }))

  app.setErrorHandler((error: FastifyError | TaskAppHttpError, request, reply) => {
    if (error instanceof TaskAppHttpError) {
      return reply.code(error.status).headers(error.headers).send(errorEnvelope(error.code, error.message))
    }
    if (JSON_BODY_ERRORS.has(error.code)) {
      return reply.code(422).send({ detail: [{ type: "json_invalid", loc: ["body"], msg: error.message }] })
    }
    const status = error.statusCode ?? 500
    if (error.code?.startsWith("FST_") && status >= 400 && status < 500) {
      return reply.code(status).send(errorEnvelope(error.code.toLowerCase(), error.message))
    }
    request.log.error({ err: error }, "task app handler failed")
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
    const infos = await Promise.all(seeds.right.map(async (seed) => ({ ...baseTaskInfo, ...(await taskInfo(seed)) })))
    return infos.length === 1 ? infos[0] : infos
  })

  app.post("/rollout", { onRequest: authorise }, async (request, reply) => {
    const decoded = decodeRolloutRequest(request.body)
    if (Either.isLeft(decoded)) return reply.code(422).send({ detail: decoded.left })
    const rolloutRequest = decoded.right
    const traceCorrelationId = traceCorrelationIdOf(rolloutRequest)
    const controller = new AbortController()
    const onClose = () => {
      if (!reply.raw.writableFinished) controller.abort()
    }
    reply.raw.once("close", onClose)
    try {
      const result = checkResult(
        await definition.rollout(rolloutRequest, { signal: controller.signal, traceCorrelationId, log: request.log }),
      )
      return buildRolloutResponse({ appId: definition.appId, request: rolloutRequest, result, traceCorrelationId })
    } catch (error) {
      // Handlers may throw anything; the error handler needs an Error to build the JSON 500.
      throw error instanceof Error ? error : new Error(`rollout handler threw ${String(error)}`)
    } finally {
      reply.raw.off("close", onClose)
    }
  })

  const listen = async (options: ListenOptions = {}) => {
    await app.listen({ port: options.port ?? 0, host: options.host ?? "127.0.0.1" })
    return { url: urlOf(app.server.address() as AddressInfo), close: () => app.close() }
  }

  return { app, listen }
}
