import type { AddressInfo } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify"
import { type AgentApi, answerAgentApi } from "./agentApis.js"
import { complete, completionBody } from "./completion.js"
import { openAIError, parseChatRequest } from "./openai.js"
import { decide } from "./policy.js"
import { streamEvents } from "./stream.js"

export interface BaselineModelOptions {
  /** Delay before every answer (before the first chunk when streaming), to stand in for a real model. */
  readonly latencyMs?: number
  /** Listed by `/v1/models` and reported when a request names no model. */
  readonly modelName?: string
}

export interface ListenOptions {
  readonly port?: number
  readonly host?: string
}

export interface RunningBaselineModel {
  /** The OpenAI base URL, e.g. `http://127.0.0.1:1234/v1`. */
  readonly url: string
  readonly close: () => Promise<void>
}

export interface BaselineModel {
  readonly listen: (options?: ListenOptions) => Promise<RunningBaselineModel>
}

/** Per-request latency override in milliseconds, so one server can play a fast and a slow model. */
export const LATENCY_HEADER = "x-baseline-latency-ms"

const DEFAULT_MODEL = "baseline"
const BODY_LIMIT = 32 * 1024 * 1024

const pathOf = (request: FastifyRequest): string => request.url.split("?", 1)[0] ?? ""

const latencyFor = (request: FastifyRequest, fallback: number): number => {
  const header = Number(request.headers[LATENCY_HEADER])
  return request.headers[LATENCY_HEADER] !== undefined && Number.isFinite(header) && header >= 0 ? header : fallback
}

const unknownUrl = (request: FastifyRequest, reply: FastifyReply) => {
  const { status, body } = openAIError(
    404,
    `Unknown request URL: ${request.method} ${pathOf(request)}.`,
    null,
    "unknown_url",
  )
  return reply.code(status).send(body)
}

const buildApp = (options: BaselineModelOptions): FastifyInstance => {
  const modelName = options.modelName ?? DEFAULT_MODEL
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT })
  // Bodies are parsed by the route so that bad JSON and a missing content-type get OpenAI's error shape.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body))
  app.setNotFoundHandler(unknownUrl)
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const { status, body } = openAIError(error.statusCode ?? 500, error.message)
    return reply.code(status).send(body)
  })

  // Clients put correlation ids in the path (`/{cid}/v1/chat/completions`), so match on the suffix.
  app.post("/*", async (request, reply) => {
    const path = pathOf(request)
    const agentApi: AgentApi | null = path.endsWith("/responses")
      ? "responses"
      : path.endsWith("/messages")
        ? "messages"
        : null
    if (agentApi !== null) {
      const answer = answerAgentApi(agentApi, typeof request.body === "string" ? request.body : "", modelName)
      const latency = latencyFor(request, options.latencyMs ?? 0)
      if (latency > 0) await sleep(latency)
      if ("error" in answer) return reply.code(answer.error.status).send(answer.error.body)
      if ("json" in answer) return answer.json
      reply.hijack()
      reply.raw.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" })
      for (const event of answer.events) reply.raw.write(event)
      reply.raw.end()
      return reply
    }
    if (!path.endsWith("/chat/completions")) return unknownUrl(request, reply)
    const parsed = parseChatRequest(typeof request.body === "string" ? request.body : "")
    if ("error" in parsed) return reply.code(parsed.error.status).send(parsed.error.body)
    const chat = parsed.request
    const completion = complete(chat, decide(chat), chat.model ?? modelName)
    const latency = latencyFor(request, options.latencyMs ?? 0)
    if (latency > 0) await sleep(latency)
    if (chat.stream !== true) return completionBody(completion)
    reply.hijack()
    reply.raw.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" })
    for (const event of streamEvents(completion, chat.stream_options?.include_usage === true)) reply.raw.write(event)
    reply.raw.end()
    return reply
  })

  app.get("/*", async (request, reply) => {
    if (!pathOf(request).endsWith("/models")) return unknownUrl(request, reply)
    return { object: "list", data: [{ id: modelName, object: "model", created: 0, owned_by: "proctor" }] }
  })
  return app
}

/**
 * An OpenAI-compatible chat-completions server driven by deterministic task heuristics; it also answers the
 * Responses API and Anthropic's messages API for tool-calling agents (see agentApis.ts).
 */
export const createBaselineModel = (options: BaselineModelOptions = {}): BaselineModel => ({
  listen: async ({ port = 0, host = "127.0.0.1" } = {}) => {
    const app = buildApp(options)
    await app.listen({ port, host })
    const { port: bound } = app.server.address() as AddressInfo
    const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host
    return { url: `http://${shown}:${bound}/v1`, close: () => app.close() }
  },
})
