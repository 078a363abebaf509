export * from "./BwrapRuntime.js"
export * from "./DockerRuntime.js"
export * from "./sandboxRuntimeOf.js"
export type { RelayProgram } from "./internal/interceptorRelay.js"
