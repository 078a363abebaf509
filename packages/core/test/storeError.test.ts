import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { testRunConfig } from "@proctor/test-kit"
import { Effect } from "effect"
import { StoreError } from "../src/store/ResultStore.js"
import { initRunDirectory } from "../src/store/RunDirectory.js"

describe("a run directory's I/O failure", () => {
  it.effect("names what failed and where, and keeps the file system's error as its cause", () =>
    Effect.gen(function* () {
      const tmp = mkdtempSync(join(tmpdir(), "proctor-store-error-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(tmp, { recursive: true, force: true })))
      // A run directory under a regular file cannot be created.
      writeFileSync(join(tmp, "file"), "")
      const dir = join(tmp, "file", "run")
      const error = yield* Effect.flip(initRunDirectory(dir, "run-1", testRunConfig()))
      expect(error).toBeInstanceOf(StoreError)
      expect(error.reason).toBe("Io")
      expect(error.message).toContain(`cannot create run directory ${dir}: `)
      expect(error.cause).toMatchObject({ code: "ENOTDIR" })
      expect(error.message).toContain((error.cause as Error).message)
    }).pipe(Effect.scoped),
  )
})
