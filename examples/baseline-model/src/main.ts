import { createBaselineModel } from "./server.js"

const latency = Number(process.env.BASELINE_LATENCY_MS ?? 0)
const model = createBaselineModel({
  latencyMs: Number.isFinite(latency) ? latency : 0,
  ...(process.env.BASELINE_MODEL_NAME === undefined ? {} : { modelName: process.env.BASELINE_MODEL_NAME }),
})
const running = await model.listen({ port: Number(process.env.PORT ?? 0) })
console.log(`baseline model listening on ${running.url}`)

const stop = () => {
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
