import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Cause, Effect, Exit, Schema } from "effect"
import type { GridSpec } from "../gridView.js"
import { makeViewerApi, viewerUpdateMessage } from "./ViewerApi.js"
import { type ViewerError, viewerErrorStatus } from "./ViewerError.js"
import type { ViewerRun } from "./ViewerRun.js"

/** Where the page finds the API: `{base}/runs`, … relative to `/`. */
export const LOCAL_API_BASE = "api"

export class ViewerServeError extends Schema.TaggedError<ViewerServeError>()("ViewerServeError", {
  reason: Schema.Literal("PortInUse", "CannotListen"),
  message: Schema.String,
}) {}

export interface LocalViewerOptions {
  readonly runs: ReadonlyArray<ViewerRun>
  /** The runs are this grid run's variants (the page's config then says `grid: true`). */
  readonly grid?: GridSpec | undefined
  /** The page's HTML, its config (`mode: "local"`, `base: "api"`) already in it. */
  readonly page: string
  /** 0 (the default): any free port. */
  readonly port?: number | undefined
}

export interface LocalViewer {
  readonly url: string
}

const HEARTBEAT_MS = 15_000
const JSON_TYPE = "application/json; charset=utf-8"

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": JSON_TYPE, "cache-control": "no-store" })
  res.end(JSON.stringify(body))
}

const sendError = (res: ServerResponse, error: ViewerError) => {
  const { status, code } = viewerErrorStatus(error)
  const field = error.field === undefined ? {} : { field: error.field }
  sendJson(res, status, { error: { code, message: error.message, ...field } })
}

/**
 * The viewer on loopback for `proctor view` and `proctor eval --view`: the page at `/`, the data API under
 * `/api/`, its `update` events at `/api/events`. Nobody else can reach it, so it asks for no key; a request
 * naming another host is refused, so a web page cannot read it through DNS rebinding. Closed with its scope.
 */
export const serveViewerLocally = (options: LocalViewerOptions) =>
  Effect.gen(function* () {
    const api = makeViewerApi(options.runs, { grid: options.grid })
    const streams = new Set<ServerResponse>()
    let allowedHosts: ReadonlySet<string> = new Set()

    const events = (req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
      })
      res.write(": proctor viewer\n\n")
      streams.add(res)
      const stop = api.watch((run) => res.write(viewerUpdateMessage(run)))
      const heartbeat = setInterval(() => res.write(": keepalive\n\n"), HEARTBEAT_MS)
      req.once("close", () => {
        stop()
        clearInterval(heartbeat)
        streams.delete(res)
      })
    }

    const handle = (req: IncomingMessage, res: ServerResponse) => {
      if (!allowedHosts.has(req.headers.host ?? "")) {
        return sendJson(res, 403, {
          error: { code: "forbidden_host", message: "this viewer answers on loopback only" },
        })
      }
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("allow", "GET, HEAD")
        return sendJson(res, 405, { error: { code: "method_not_allowed", message: `${req.method}: expected GET` } })
      }
      const url = new URL(req.url ?? "/", "http://viewer")
      if (url.pathname === "/" || url.pathname === "/index.html") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
        return res.end(options.page)
      }
      const prefix = `/${LOCAL_API_BASE}/`
      if (!url.pathname.startsWith(prefix)) {
        return sendJson(res, 404, { error: { code: "not_found", message: `no page ${url.pathname}` } })
      }
      const path = url.pathname.slice(prefix.length)
      if (path === "events") return events(req, res)
      const query: Record<string, string> = {}
      for (const [key, value] of url.searchParams) query[key] ??= value
      void Effect.runPromiseExit(api.get(path, query)).then((exit) => {
        if (Exit.isSuccess(exit)) return sendJson(res, 200, exit.value)
        const failure = Cause.failureOption(exit.cause)
        if (failure._tag === "Some") return sendError(res, failure.value)
        process.stderr.write(`proctor viewer: ${url.pathname} failed: ${Cause.pretty(exit.cause)}\n`)
        sendJson(res, 500, { error: { code: "internal_error", message: "the viewer failed to answer this request" } })
      })
    }

    const server = createServer(handle)
    const port = options.port ?? 0
    yield* Effect.acquireRelease(
      Effect.async<void, ViewerServeError>((resume) => {
        server.once("error", (error: NodeJS.ErrnoException) =>
          resume(
            Effect.fail(
              error.code === "EADDRINUSE"
                ? new ViewerServeError({ reason: "PortInUse", message: `port ${port} is in use` })
                : new ViewerServeError({
                    reason: "CannotListen",
                    message: `cannot listen on port ${port}: ${error.message}`,
                  }),
            ),
          ),
        )
        server.listen(port, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.async<void>((resume) => {
          for (const res of streams) res.end()
          server.close(() => resume(Effect.void))
          server.closeAllConnections()
        }),
    )
    const bound = (server.address() as AddressInfo).port
    allowedHosts = new Set([`127.0.0.1:${bound}`, `localhost:${bound}`])
    return { url: `http://127.0.0.1:${bound}/` } satisfies LocalViewer
  })
