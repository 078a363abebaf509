#!/usr/bin/env node
import { parseArgs } from "node:util"
import { type FlagParser, FlagValueError, integerFlag, portFlag } from "@proctor/core"
import { Effect, Exit } from "effect"
import { causeMessage } from "./internal/causeMessage.js"
import { serve } from "./serve.js"

/**
 * A bare `node dist/serveMain.js --data-dir DIR [--port P] [--host H] [--database-url URL] [--grace-ms MS]
 * [--max-running-jobs N]` for process-level tests and containers; the `proctor serve` command is the CLI's.
 * Prints one JSON line `{"url": …}` once listening.
 */
const parsed = (() => {
  try {
    const { values } = parseArgs({
      options: {
        "data-dir": { type: "string" },
        "database-url": { type: "string" },
        host: { type: "string" },
        port: { type: "string" },
        "grace-ms": { type: "string" },
        "max-running-jobs": { type: "string" },
      },
    })
    const read = <A>(name: keyof typeof values, parse: FlagParser<A>): A | undefined => {
      const raw = values[name]
      if (raw === undefined) return undefined
      try {
        return parse(raw)
      } catch (error) {
        throw error instanceof FlagValueError ? new Error(`--${name}: ${error.message}`) : error
      }
    }
    return {
      dataDir: values["data-dir"],
      databaseUrl: values["database-url"],
      host: values.host,
      port: read("port", portFlag),
      drainGraceMs: read("grace-ms", integerFlag({ min: 0 })),
      maxRunningJobs: read("max-running-jobs", integerFlag({ min: 1 })),
    }
  } catch (error) {
    process.stderr.write(`serveMain: ${(error as Error).message}\n`)
    process.exit(2)
  }
})()

Effect.runPromiseExit(
  serve({
    ...parsed,
    onReady: (server) =>
      Effect.sync(() =>
        process.stdout.write(`${JSON.stringify({ url: server.url, pid: process.pid })}
`),
      ),
  }),
).then((exit) => {
  if (Exit.isSuccess(exit)) process.exit(0)
  process.stderr.write(`${causeMessage(exit.cause)}
`)
  process.exit(1)
})
