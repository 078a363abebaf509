import { runInterceptorWorker } from "@proctor/server/internal/interceptor-thread"

// The interceptor thread's entry, bundled into dist/interceptorThread.js (build.mjs): the thread starts in a
// fresh isolate on every `proctor eval`, so it compiles one file instead of resolving hundreds of modules.
await runInterceptorWorker()
