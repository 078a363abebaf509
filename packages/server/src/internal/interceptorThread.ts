// `@proctor/server/internal/interceptor-thread`: the interceptor on a worker thread of its own, as `proctor eval`
// runs it. Internal, not part of `@proctor/server`'s API: the CLI imports it (so its bundle, and the thread's,
// hold neither fastify nor the job store) and names its own bundled copy of the thread's body (`entry`); a
// benchmark runs the same body behind its probes. Programs embedding proctor use `startInterceptor`.
export * from "../interceptor/launchInterceptorThread.js"
export * from "../interceptor/runInterceptorWorker.js"
export * from "../interceptor/startInterceptorWorker.js"
