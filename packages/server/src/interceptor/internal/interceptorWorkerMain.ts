import { runInterceptorWorker } from "../runInterceptorWorker.js"

await runInterceptorWorker()
