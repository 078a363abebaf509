import { request } from "node:http"
import { describe, expect, it } from "@effect/vitest"
import { freshDir, testResult as result, writeRun } from "@proctor/test-kit"
import { Effect, Exit, Scope } from "effect"
import { openRunDirectoryRun } from "../src/backend/runDirectoryRun.js"
import { serveViewerLocally } from "../src/backend/serveViewerLocally.js"
import { viewerPage } from "../src/index.js"

const page = viewerPage({ mode: "local", base: "api" })

/** A GET with a Host header of our choosing, which fetch does not allow. */
const getWithHost = (url: string, host: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.once("error", reject)
    req.end()
  })

/** Reads an event stream until `text` has arrived; resolves with everything read. */
const readUntil = async (body: ReadableStream<Uint8Array>, text: string) => {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let seen = ""
  while (!seen.includes(text)) {
    const { value, done } = await reader.read()
    if (done) break
    seen += decoder.decode(value, { stream: true })
  }
  reader.releaseLock()
  return seen
}

describe("the local viewer server (proctor view, eval --view)", () => {
  it.live("serves the page, the data API with its errors as JSON, and update events; on loopback names only", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const run = yield* Scope.extend(writeRun(freshDir(), [0, 1]), scope)
      yield* run.add(result({ seed: 0, score: 1 }))
      const viewerRun = yield* Scope.extend(openRunDirectoryRun(run.dir, { followEveryMs: 20 }), scope)
      const { url } = yield* Scope.extend(serveViewerLocally({ runs: [viewerRun], page }), scope)
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)

      const home = yield* Effect.promise(() => fetch(url))
      expect(home.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(yield* Effect.promise(() => home.text())).toContain('{"mode":"local","base":"api"}')

      const runs = yield* Effect.promise(() => fetch(`${url}api/runs`).then((r) => r.json()))
      expect(runs).toMatchObject({ runs: [{ index: 0, name: "run", live: false }] })

      const missing = yield* Effect.promise(() => fetch(`${url}api/runs/4/rows`))
      expect(missing.status).toBe(404)
      expect(yield* Effect.promise(() => missing.json())).toMatchObject({ error: { code: "not_found" } })
      const invalid = yield* Effect.promise(() => fetch(`${url}api/runs/0/rows?from=x`))
      expect(invalid.status).toBe(400)
      expect(yield* Effect.promise(() => invalid.json())).toEqual({
        error: {
          code: "invalid_request",
          field: "from",
          message: 'from: expected a row position (an integer ≥ 0), got "x"',
        },
      })
      expect((yield* Effect.promise(() => fetch(`${url}api/runs`, { method: "POST" }))).status).toBe(405)
      expect(yield* Effect.promise(() => getWithHost(`${url}api/runs`, "attacker.example"))).toBe(403)
      expect(yield* Effect.promise(() => getWithHost(`${url}api/runs`, `localhost:${new URL(url).port}`))).toBe(200)

      const events = yield* Effect.promise(() => fetch(`${url}api/events`))
      expect(events.headers.get("content-type")).toBe("text/event-stream; charset=utf-8")
      yield* Effect.promise(() => readUntil(events.body!, ": proctor viewer"))
      yield* run.add(result({ seed: 1, score: 0 }))
      const seen = yield* Effect.promise(() => readUntil(events.body!, "\n\n"))
      expect(seen).toBe('event: update\ndata: {"run":0}\n\n')

      // Closing ends the event stream and the server.
      yield* Scope.close(scope, Exit.void)
      const rest = yield* Effect.promise(() => readUntil(events.body!, "never arrives"))
      expect(rest).toBe("")
      const after = yield* Effect.promise(() =>
        fetch(`${url}api/runs`).then(
          () => "answered",
          () => "refused",
        ),
      )
      expect(after).toBe("refused")
    }),
  )
})
