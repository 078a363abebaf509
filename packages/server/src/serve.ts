import { Effect, type Layer, ManagedRuntime } from "effect"
import {
  createJobServer,
  DEFAULT_DRAIN_GRACE_MS,
  type JobServer,
  type JobServerOptions,
} from "./api/createJobServer.js"
import type { ApiKeyRecord, CreatedApiKey } from "./jobs/ApiKey.js"
import { issueApiKey } from "./jobs/issueApiKey.js"
import { JobStore } from "./jobs/JobStore.js"
import type { JobStoreError } from "./jobs/JobStoreError.js"

export interface ServeOptions extends JobServerOptions {
  /** Signals that drain and stop the server. Default SIGTERM and SIGINT; [] installs no handler. */
  readonly signals?: ReadonlyArray<NodeJS.Signals> | undefined
}

export interface ServeHandle {
  readonly url: string
  readonly server: JobServer
  /** Resolves once the server has drained and closed (after a signal or `server.shutdown()`). */
  readonly closed: Promise<void>
}

/**
 * `proctor serve`: the job server with SIGTERM drain. A signal stops new rollouts, lets in-flight ones finish
 * within `drainGraceMs`, leaves unfinished jobs `running` for the next start, and closes.
 */
export const serve = async (options: ServeOptions): Promise<ServeHandle> => {
  const server = await createJobServer(options)
  const signals = options.signals ?? ["SIGTERM", "SIGINT"]
  const onSignal = () => {
    for (const signal of signals) process.off(signal, onSignal)
    void server.shutdown(options.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS)
  }
  for (const signal of signals) process.on(signal, onSignal)
  const closed = server.closed.finally(() => {
    for (const signal of signals) process.off(signal, onSignal)
  })
  return { url: server.url, server, closed }
}

export interface KeyStoreOptions {
  readonly dataDir?: string | undefined
  readonly databaseUrl?: string | undefined
}

const storeLayer = (options: KeyStoreOptions): Layer.Layer<JobStore, JobStoreError> => {
  if (options.databaseUrl !== undefined) return JobStore.layerPg(options.databaseUrl)
  if (options.dataDir !== undefined) return JobStore.layerSqlite(options.dataDir)
  throw new Error("give a data directory (--data-dir) or a database URL")
}

const withStore = async <A>(options: KeyStoreOptions, program: Effect.Effect<A, JobStoreError, JobStore>) => {
  const runtime = ManagedRuntime.make(storeLayer(options))
  try {
    return await runtime.runPromise(program)
  } finally {
    await runtime.dispose()
  }
}

/**
 * `proctor keys create --name NAME [--admin] --data-dir DIR`: opens the store (creating and migrating it if
 * needed), stores the new key's hash, and returns the plaintext key. Show `key` once; it cannot be recovered.
 */
export const createApiKey = (
  options: KeyStoreOptions & { readonly name: string; readonly admin?: boolean | undefined },
): Promise<CreatedApiKey> => {
  const name = options.name.trim()
  if (name === "" || name.length > 100) return Promise.reject(new Error("--name: expected 1 to 100 characters"))
  return withStore(options, issueApiKey({ name, admin: options.admin ?? false }))
}

/** `proctor keys list`: every key's id, name, prefix and state; never a key or its hash. */
export const listApiKeys = (options: KeyStoreOptions): Promise<ReadonlyArray<ApiKeyRecord>> =>
  withStore(
    options,
    Effect.flatMap(JobStore, (store) => store.listApiKeys),
  )

/**
 * `proctor keys revoke ID`: the key stops working at once, except that a running server's status route may still
 * accept it for its `apiKeyCacheTtlMs` (1 s by default); its jobs stay. False when no active key has that id.
 */
export const revokeApiKey = (options: KeyStoreOptions & { readonly id: string }): Promise<boolean> =>
  withStore(
    options,
    Effect.flatMap(JobStore, (store) => store.revokeApiKey(options.id, new Date().toISOString())),
  )
