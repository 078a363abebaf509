import { EvalResult } from "@proctor/core"
import { JSONSchema, type Schema } from "effect"
import { JobEvent } from "../jobs/JobEvent.js"
import { JobStatus } from "../jobs/JobStatus.js"
import {
  ErrorResponse,
  HealthResponse,
  JobCreatedResponse,
  JobListResponse,
  JobResultsResponse,
  JobStatusResponse,
  ReadyResponse,
} from "./ApiSchemas.js"
import { JobCreateRequest } from "./JobCreateRequest.js"

type JsonObject = Record<string, unknown>

/**
 * The OpenAPI 3.1 document, generated from the same Schemas the routes decode with (`JSONSchema.make` per
 * body and response schema), so the document cannot drift from what the server accepts.
 */
export const buildOpenApi = (options: { readonly version: string }): JsonObject => {
  const components: Record<string, unknown> = {}
  const rewrite = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'))
  const ref = (name: string, schema: Schema.Schema.AnyNoContext, patch: JsonObject = {}) => {
    const { $schema: _draft, $defs, ...rest } = JSONSchema.make(schema) as unknown as JsonObject
    for (const [key, value] of Object.entries(($defs ?? {}) as JsonObject)) components[key] = rewrite(value)
    components[name] = { ...(rewrite(rest) as JsonObject), ...patch }
    return { $ref: `#/components/schemas/${name}` }
  }

  const error = ref("ErrorResponse", ErrorResponse)
  const errors = (...codes: ReadonlyArray<number>) =>
    Object.fromEntries(
      codes.map((code) => [String(code), { description: errorDescriptions[code] ?? "error", content: json(error) }]),
    )
  const json = (schema: JsonObject) => ({ "application/json": { schema } })
  const jobId = { name: "id", in: "path", required: true, schema: { type: "string" } }
  const security = [{ bearer: [] }]
  const events = {
    summary:
      "Server-sent events: a status snapshot, each finished rollout, and the job's end (replayed when it has ended)",
    security,
    parameters: [jobId],
    responses: {
      "200": {
        description: "an event stream; each `data:` line is a JobEvent",
        content: { "text/event-stream": { schema: ref("JobEvent", JobEvent) } },
      },
      ...errors(401, 404, 429),
    },
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "proctor eval job API",
      version: options.version,
      description:
        "synth-ai's eval job API (POST/GET /api/eval/jobs…) plus proctor's listing, cancel, events, JSONL results and ops endpoints.",
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "an API key, pk_…" } },
      schemas: components,
    },
    paths: {
      "/api/eval/jobs": {
        post: {
          summary: "Submit an eval job (committed before the answer)",
          security,
          requestBody: {
            required: true,
            content: json(ref("JobCreateRequest", JobCreateRequest, { additionalProperties: true })),
          },
          responses: {
            "200": { description: "the job, queued", content: json(ref("JobCreatedResponse", JobCreatedResponse)) },
            ...errors(400, 401, 403, 413, 415, 429, 503),
          },
        },
        get: {
          summary: "List jobs, newest first (an admin key sees every key's jobs)",
          security,
          parameters: [
            {
              name: "status",
              in: "query",
              schema: { type: "string" },
              description: `one or more of ${JobStatus.literals.join(", ")}, comma-separated`,
            },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
            {
              name: "cursor",
              in: "query",
              schema: { type: "string" },
              description: "next_cursor of the previous page",
            },
          ],
          responses: {
            "200": { description: "a page of jobs", content: json(ref("JobListResponse", JobListResponse)) },
            ...errors(400, 401, 429),
          },
        },
      },
      "/api/eval/jobs/{id}": {
        get: {
          summary: "A job's status and progress (synth-ai's poll target)",
          security,
          parameters: [jobId],
          responses: {
            "200": { description: "the job", content: json(ref("JobStatusResponse", JobStatusResponse)) },
            ...errors(401, 404, 429),
          },
        },
      },
      "/api/eval/jobs/{id}/results": {
        get: {
          summary: "Summary and every result row, streamed from the database",
          security,
          parameters: [
            jobId,
            {
              name: "format",
              in: "query",
              schema: { type: "string", enum: ["json", "jsonl"] },
              description: "jsonl (or Accept: application/x-ndjson) streams one EvalResult per line",
            },
          ],
          responses: {
            "200": {
              description: "results",
              content: {
                ...json(ref("JobResultsResponse", JobResultsResponse)),
                "application/x-ndjson": { schema: ref("EvalResult", EvalResult) },
              },
            },
            ...errors(400, 401, 404, 429),
          },
        },
      },
      "/api/eval/jobs/{id}/traces": {
        get: {
          summary: "A zip of seed_{seed}_trace.json files",
          security,
          parameters: [jobId],
          responses: {
            "200": {
              description: "the traces",
              content: { "application/zip": { schema: { type: "string", contentMediaType: "application/zip" } } },
            },
            ...errors(401, 404, 429),
          },
        },
      },
      "/api/eval/jobs/{id}/cancel": {
        post: {
          summary: "Cancel a job: no new rollouts; in-flight ones finish within the grace period",
          security,
          parameters: [jobId],
          responses: {
            "200": {
              description: "the job after cancelling",
              content: json(ref("JobStatusResponse", JobStatusResponse)),
            },
            ...errors(400, 401, 404, 429),
          },
        },
      },
      "/api/eval/jobs/{id}/events": { get: events },
      "/api/eval/jobs/{id}/events/stream": {
        get: { ...events, summary: `${events.summary} (the path newer synth-ai clients use)` },
      },
      "/api/eval/jobs/{id}/view/events": {
        get: {
          summary:
            "The viewer's live updates for a job: server-sent `event: update` with `{ run }` whenever it has new rows or live state",
          security,
          parameters: [jobId],
          responses: {
            "200": { description: "an event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
            ...errors(401, 404, 429),
          },
        },
      },
      "/api/eval/jobs/{id}/view/{path}": {
        get: {
          summary:
            "The viewer's data API over a job (its run is run 0): `runs`, `runs/0/rows?from=N`, `runs/0/rollouts/{seed}/{attempt}` (with `/steps` an agent rollout's timeline, with `/agent_trajectory` a command-line agent's own events), `runs/0/live`",
          security,
          parameters: [jobId, { name: "path", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": { description: "the viewer API's JSON answer", content: json({ type: "object" }) },
            ...errors(401, 404, 429),
          },
        },
      },
      "/": {
        get: {
          summary:
            "The team dashboard: the viewer, signing in with an API key (kept in the browser's sessionStorage, sent as a Bearer header)",
          responses: {
            "200": { description: "an HTML page", content: { "text/html": { schema: { type: "string" } } } },
          },
        },
      },
      "/api/openapi.json": {
        get: {
          summary: "This OpenAPI document",
          responses: { "200": { description: "OpenAPI 3.1", content: json({ type: "object" }) } },
        },
      },
      "/docs": {
        get: {
          summary:
            "This API reference as a web page, rendered from this document by the server's own page: works offline",
          responses: {
            "200": { description: "an HTML page", content: { "text/html": { schema: { type: "string" } } } },
          },
        },
      },
      "/interceptor/{path}": {
        post: {
          summary:
            "The inference interceptor: task apps call the model at /interceptor/cid_…/v1/chat/completions (or /responses, /messages); each call is forwarded to the job's inference_url, traced and priced. The correlation id in the path is the capability: no API key.",
          parameters: [{ name: "path", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
          responses: {
            "200": { description: "the upstream model's answer, passed through (JSON or an SSE stream)" },
            "404": { description: "no rollout of a running job has this correlation id" },
          },
        },
      },
      "/healthz": {
        get: {
          summary: "Liveness",
          responses: { "200": { description: "alive", content: json(ref("HealthResponse", HealthResponse)) } },
        },
      },
      "/readyz": {
        get: {
          summary:
            "Readiness: the database answers, Redis answers (when the server has --redis-url), and the server is not draining",
          responses: {
            "200": { description: "ready", content: json(ref("ReadyResponse", ReadyResponse)) },
            "503": { description: "not ready", content: json({ $ref: "#/components/schemas/ReadyResponse" }) },
          },
        },
      },
      "/metrics": {
        get: {
          summary:
            "Prometheus metrics: this process's rollouts, model calls and latency, jobs by status; with --redis-url also the cluster's queue depth, workers alive, leases lost, rollouts re-run and rollouts per worker",
          responses: {
            "200": { description: "text exposition format", content: { "text/plain": { schema: { type: "string" } } } },
          },
        },
      },
    },
  }
}

const errorDescriptions: Record<number, string> = {
  400: "a field is invalid (named in error.field)",
  401: "missing or unknown API key",
  403: "task_app_url is outside the server's allow-list",
  404: "no such job for this key",
  413: "the body is larger than the server's limit",
  415: "the body is not JSON",
  429: "rate limited (see Retry-After) or too many jobs in progress for this key",
  503: "shutting down, or the database is unavailable",
}
