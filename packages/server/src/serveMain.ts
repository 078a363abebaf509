#!/usr/bin/env node
import { Effect, Exit } from "effect"
import { causeMessage } from "./internal/causeMessage.js"
import { serve } from "./serve.js"

/**
 * A bare `node dist/serveMain.js --data-dir DIR [--port P] [--host H] [--database-url URL] [--grace-ms MS]
 * [--max-running-jobs N]` for process-level tests and containers; the `proctor serve` command is the CLI's.
 * Prints one JSON line `{"url": …}` once listening.
 */
const flags = new Map<string, string>()
const argv = process.argv.slice(2)
for (let i = 0; i < argv.length; i++) {
  const name = argv[i]!
  if (!name.startsWith("--")) continue
  flags.set(name.slice(2), argv[i + 1] ?? "")
  i++
}
const numberFlag = (name: string) => (flags.has(name) ? Number(flags.get(name)) : undefined)

Effect.runPromiseExit(
  serve({
    dataDir: flags.get("data-dir"),
    databaseUrl: flags.get("database-url"),
    host: flags.get("host"),
    port: numberFlag("port"),
    drainGraceMs: numberFlag("grace-ms"),
    maxRunningJobs: numberFlag("max-running-jobs"),
    onReady: (server) =>
      Effect.sync(() => process.stdout.write(`${JSON.stringify({ url: server.url, pid: process.pid })}\n`)),
  }),
).then((exit) => {
  if (Exit.isSuccess(exit)) process.exit(0)
  process.stderr.write(`${causeMessage(exit.cause)}\n`)
  process.exit(1)
})
