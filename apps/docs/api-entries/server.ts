/**
 * The inference interceptor and the eval job server (`createJobServer`), on fastify.
 * @module @proctor/server
 */
export * from "@proctor/server"
