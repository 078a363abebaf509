import { viewerPage } from "@proctor/viewer"
import { makeViewerApi, viewerUpdateMessage } from "@proctor/viewer/backend"
import { Effect, Exit, Option } from "effect"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import { ClusterLiveRuns } from "../cluster/ClusterLiveRuns.js"
import { isTerminal } from "../jobs/JobStatus.js"
import type { JobRecord } from "../jobs/JobStore.js"
import { type LiveRun, LocalJobs } from "../jobs/LocalJobs.js"
import { RolloutStore } from "../jobs/RolloutStore.js"
import { authenticate, jobFor } from "./authenticate.js"
import { type ApiRuntime, sendFailure } from "./jobRoutes.js"
import { jobViewerRun } from "./jobViewerRun.js"
import { openEventStream } from "./sse.js"

const HEARTBEAT_MS = 15_000

/**
 * What is in flight of a job: from this process's run of it (embedded), or as this replica folds what a cluster's
 * workers report (an API replica); nothing once it has ended.
 */
const liveRunOf = (job: JobRecord) =>
  Effect.gen(function* () {
    const local = yield* Effect.serviceOption(LocalJobs)
    if (Option.isSome(local)) return () => local.value.liveRun(job.id)
    const cluster = yield* Effect.serviceOption(ClusterLiveRuns)
    const fold = Option.isNone(cluster) || isTerminal(job.status) ? null : yield* cluster.value.follow(job.id)
    return (): LiveRun | null => (fold === null || fold.ended ? null : { state: fold.state, committedSeq: null })
  })

type ViewRequest = FastifyRequest<{ Params: { id: string; "*"?: string }; Querystring: Record<string, string> }>

/**
 * The team dashboard: the viewer's page at `/` (it asks for an API key and keeps it in sessionStorage), and each
 * job's data under `/api/eval/jobs/{id}/view/…` (VIEWER_API.md section 3, the job as run 0), behind the same
 * Bearer key as the rest of the API: a job of another key is the same 404 as no job at all.
 */
export const registerViewerRoutes = async (
  app: FastifyInstance,
  runtime: ApiRuntime,
  options: { readonly streams: Set<() => void> },
) => {
  const page = viewerPage({ mode: "server", base: "api" })
  app.get("/", (_request, reply) =>
    reply.type("text/html; charset=utf-8").header("cache-control", "no-store").send(page),
  )

  /** Auth, then the viewer API over the job the key may see. */
  const apiFor = (request: ViewRequest) =>
    Effect.gen(function* () {
      const key = yield* authenticate(request.headers.authorization)
      const job = yield* jobFor(key, request.params.id)
      return makeViewerApi([jobViewerRun(job, yield* RolloutStore, yield* liveRunOf(job))])
    })

  app.get("/api/eval/jobs/:id/view/events", async (request: ViewRequest, reply: FastifyReply) => {
    const exit = await runtime.runPromiseExit(apiFor(request))
    if (Exit.isFailure(exit)) return sendFailure(reply, request.log, exit.cause)
    reply.hijack()
    const raw = reply.raw
    openEventStream(raw)
    raw.write(": proctor viewer\n\n")
    const unwatch = exit.value.watch((run) => raw.write(viewerUpdateMessage(run)))
    const heartbeat = setInterval(() => raw.write(": keepalive\n\n"), HEARTBEAT_MS)
    await new Promise<void>((resolve) => {
      const stop = () => {
        unwatch()
        clearInterval(heartbeat)
        options.streams.delete(stop)
        if (!raw.writableEnded) raw.end()
        resolve()
      }
      options.streams.add(stop)
      request.raw.once("close", stop)
    })
    return reply
  })

  app.get("/api/eval/jobs/:id/view/*", async (request: ViewRequest, reply: FastifyReply) => {
    const exit = await runtime.runPromiseExit(
      Effect.flatMap(apiFor(request), (api) => api.get(request.params["*"] ?? "", request.query ?? {})),
    )
    if (Exit.isSuccess(exit)) return reply.send(exit.value)
    return sendFailure(reply, request.log, exit.cause)
  })
}
