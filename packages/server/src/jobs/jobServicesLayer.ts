import { Layer, Redacted } from "effect"
import { ServerMetrics } from "./ServerMetrics.js"
import { serverSecretBoxLayer } from "./ServerSecretBox.js"

export interface JobServicesOptions {
  /** The key that seals task-app keys at rest; default `PROCTOR_SECRET_KEY`, else `{dataDir}/secret.key`. */
  readonly secretKey?: string | undefined
  /** Where `secret.key` is kept when no key is given (a cluster's processes have none: they share PostgreSQL's). */
  readonly dataDir?: string | undefined
}

/**
 * What every process that admits or runs jobs stands on (an embedded server, a cluster's API replica, a rollout
 * worker): its store, the secret box checked against that store, and its metrics.
 */
export const jobServicesLayer = <ROut, E>(store: Layer.Layer<ROut, E>, options: JobServicesOptions) =>
  serverSecretBoxLayer({
    secretKey: options.secretKey === undefined ? undefined : Redacted.make(options.secretKey),
    dataDir: options.dataDir,
  }).pipe(Layer.provideMerge(store), Layer.merge(ServerMetrics.layer))
