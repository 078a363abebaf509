export * from "./BwrapRuntime.js"
export * from "./DockerRuntime.js"
export type { RelayProgram } from "./internal/interceptorRelay.js"
export * from "./sandboxRuntimeOf.js"
