export * from "./BwrapRuntime.js"
export * from "./DockerRuntime.js"
