import { Effect, type Layer, ManagedRuntime } from "effect"
import { type JobServerOptions, jobServer, type ListeningJobServer } from "./api/createJobServer.js"
import type { ApiKeyRecord, CreatedApiKey } from "./jobs/ApiKey.js"
import { issueApiKey } from "./jobs/issueApiKey.js"
import { JobDatabase } from "./jobs/JobDatabase.js"
import type { JobStoreError } from "./jobs/JobStoreError.js"
import { KeyStore } from "./jobs/KeyStore.js"
import type { StartError } from "./lifetime/StartError.js"
import { type UntilSignalOptions, untilSignal } from "./lifetime/untilSignal.js"

/** What `serve` runs: the job server, and what to do once it listens and when a signal starts its drain. */
export interface ServeOptions extends JobServerOptions, UntilSignalOptions<ListeningJobServer> {}

/**
 * `proctor serve`: the job server until a signal. The first drains it: no new jobs or rollouts, in-flight ones
 * finish within `drainGraceMs`, unfinished jobs stay `running` for the next start; then it closes. A second signal
 * abandons the rollouts still in flight and closes at once. Interrupting this Effect drains the same way.
 */
export const serve = (options: ServeOptions): Effect.Effect<void, StartError> =>
  untilSignal((hurry) => jobServer(options, hurry), options)

export interface KeyStoreOptions {
  readonly dataDir?: string | undefined
  readonly databaseUrl?: string | undefined
}

const storeLayer = (options: KeyStoreOptions): Layer.Layer<KeyStore, JobStoreError> => {
  if (options.databaseUrl !== undefined) return JobDatabase.layerPg(options.databaseUrl)
  if (options.dataDir !== undefined) return JobDatabase.layerSqlite(options.dataDir)
  throw new Error("give a data directory (--data-dir) or a database URL")
}

const withStore = async <A>(options: KeyStoreOptions, program: Effect.Effect<A, JobStoreError, KeyStore>) => {
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
    Effect.flatMap(KeyStore, (store) => store.listApiKeys),
  )

/**
 * `proctor keys revoke ID`: the key stops working at once, except that a running server's status route may still
 * accept it for its `apiKeyCacheTtlMs` (1 s by default); its jobs stay. False when no active key has that id.
 */
export const revokeApiKey = (options: KeyStoreOptions & { readonly id: string }): Promise<boolean> =>
  withStore(
    options,
    Effect.flatMap(KeyStore, (store) => store.revokeApiKey(options.id, new Date().toISOString())),
  )
