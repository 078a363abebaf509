import { Worker } from "node:worker_threads"
import type { ModelRateLimitRule } from "@proctor/core/rate-gate"
import type { FromWorker, WorkerSettings } from "./internal/workerProtocol.js"

export interface InterceptorThreadOptions {
  /** Default 127.0.0.1: the interceptor hands out capabilities to a model key, so it stays local unless told. */
  readonly host?: string | undefined
  /** Default 0 (any free port). */
  readonly port?: number | undefined
  readonly upstreamTimeoutMs?: number | undefined
  readonly connectionsPerOrigin?: number | null | undefined
  readonly bodyLimit?: number | undefined
  /**
   * The thread's young generation, in MiB. Default 12 (4 MiB semi-spaces): with V8's default of 32 MiB,
   * scavenges under load copied enough survivors to pause the proxy for 10–20 ms; at 12 MiB they take
   * 1–3 ms (bench/RESULTS.md, interceptor).
   */
  readonly youngGenerationMb?: number | undefined
  /** Configured limits of model upstreams, applied by the thread's rate gate. */
  readonly modelRateLimits?: ReadonlyArray<ModelRateLimitRule> | undefined
  /**
   * Share the rate gate through this Redis (`redisRateGate`) with every process that calls the same upstreams;
   * default: the thread's own gate.
   */
  readonly sharedRateGate?: { readonly redisUrl: string; readonly prefix: string } | undefined
  /**
   * The module the thread runs, default proctor's own: a bundle names its own copy (the CLI's), a benchmark a
   * module that loads its probes and then calls `runInterceptorWorker`.
   */
  readonly entry?: URL | undefined
}

/** A thread on its way to listening, before anything talks to it (`startInterceptorWorker` takes it over). */
export interface LaunchedInterceptorThread {
  readonly thread: Worker
  /** The interceptor's base URL once it listens; rejects when it cannot start or exits first. */
  readonly listening: Promise<string>
  /** Resolves once the thread has exited, with why (`exit code N` or its error's message). */
  readonly exited: Promise<string>
}

// `dist/` is the sibling of `src/` at the same depth, so this names the built entry from either: the thread
// always runs compiled JavaScript, also when this module is loaded from source (tests).
const DEFAULT_ENTRY = new URL("../../dist/interceptor/internal/interceptorWorkerMain.js", import.meta.url)

const DEFAULT_YOUNG_GENERATION_MB = 12

/**
 * Starts the interceptor's thread. Imports nothing but node's worker_threads, so a command can launch it first
 * and let the thread start (a fresh isolate compiling its bundle) while the command loads its own code. Its
 * start is watched from here on: what it announces before anyone listens is kept, not lost.
 */
export const launchInterceptorThread = (options: InterceptorThreadOptions = {}): LaunchedInterceptorThread => {
  const settings: WorkerSettings = {
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    upstreamTimeoutMs: options.upstreamTimeoutMs,
    connectionsPerOrigin: options.connectionsPerOrigin,
    bodyLimit: options.bodyLimit,
    modelRateLimits: options.modelRateLimits ?? [],
    // Loaded by the thread only when asked for, so `proctor eval`'s thread bundle holds no Redis client.
    sharedRateGate:
      options.sharedRateGate === undefined
        ? null
        : { ...options.sharedRateGate, module: import.meta.resolve("@proctor/server/redis-rate-gate") },
  }
  const thread = new Worker(options.entry ?? DEFAULT_ENTRY, {
    workerData: settings,
    // Proctor's compiled code only, none of the process's node options: a test runner's `--conditions source`
    // would turn the thread's imports into `.ts` files, and an `--import` preload (a supervisor's watchdog)
    // would run again on the thread. V8's options (heap, GC) are the whole process's anyway.
    execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: options.youngGenerationMb ?? DEFAULT_YOUNG_GENERATION_MB },
  })
  let errorMessage: string | null = null
  thread.on("error", (error) => {
    errorMessage = error.message
  })
  const exited = new Promise<string>((resolve) =>
    thread.once("exit", (code) => resolve(errorMessage ?? `exit code ${code}`)),
  )
  const listening = new Promise<string>((resolve, reject) => {
    const onMessage = (message: FromWorker) => {
      if (message.op === "listening") resolve(message.url)
      else if (message.op === "failed") reject(new Error(`the interceptor cannot start: ${message.message}`))
      else return
      thread.off("message", onMessage)
    }
    thread.on("message", onMessage)
    void exited.then((reason) => reject(new Error(`the interceptor thread exited before it listened (${reason})`)))
  })
  // A launched thread may be discarded before anyone asks (a command that turns out not to need it).
  listening.catch(() => {})
  return { thread, listening, exited }
}
