import { createIntentsApp } from "./app.js"

const inferenceApiKey = process.env.INFERENCE_API_KEY
const app = createIntentsApp(inferenceApiKey === undefined ? {} : { inferenceApiKey })
const running = await app.listen({ port: Number(process.env.PORT ?? 0) })
console.log(`intents task app listening on ${running.url}`)

const stop = () => {
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
