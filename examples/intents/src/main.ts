import { environmentApiKeys } from "@proctor/task-app"
import { createIntentsApp } from "./app.js"

const inferenceApiKey = process.env.INFERENCE_API_KEY
// Bound to loopback only, so running without a key (the local demo) is safe: the SDK warns that it is open.
const auth = environmentApiKeys().length > 0 ? "key" : "none"
const app = createIntentsApp({ auth, ...(inferenceApiKey === undefined ? {} : { inferenceApiKey }) })
const running = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" })
console.log(`intents task app listening on ${running.url}`)

const stop = () => {
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
