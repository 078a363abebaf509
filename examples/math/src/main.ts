import { environmentApiKeys } from "@proctor/task-app"
import { createMathApp } from "./app.js"

// Bound to loopback only, so running without a key (the local demo) is safe: the SDK warns that it is open.
const keyConfigured = environmentApiKeys().length > 0

const { url, close } = await createMathApp({ auth: keyConfigured ? "key" : "none" }).listen({
  port: Number(process.env.PORT ?? 0),
  host: "127.0.0.1",
})
process.stdout.write(`math task app listening on ${url}\n`)

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void close().then(() => process.exit(0))
  })
}
