import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { cleanEnv, ensureBuilt, startCli } from "./fixtures/harness.js"

/** `proctor serve --database-url`: the secret key never lands in the working directory by surprise. */

/** The usage error comes before any connection: no database need answer at this address. */
const UNUSED_URL = "postgres://nobody@127.0.0.1:1/none"

/** A database of its own on the local PostgreSQL (trust auth), so the key's fingerprint lands nowhere shared. */
const psql = (sql: string) =>
  spawnSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", "test", "-c", sql], { encoding: "utf8" }).status === 0
const database = `proctor_cli_key_${randomBytes(6).toString("hex")}`
const hasPg = psql(`CREATE DATABASE ${database}`)
let cwd: string

beforeAll(() => {
  ensureBuilt()
  cwd = mkdtempSync(join(tmpdir(), "proctor-serve-key-"))
}, 300_000)

afterAll(() => {
  rmSync(cwd, { recursive: true, force: true })
  if (hasPg) psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
})

const envWithout = (...names: ReadonlyArray<string>) => {
  const env = cleanEnv()
  for (const name of names) delete env[name]
  return env
}

describe("proctor serve --database-url", () => {
  it("without PROCTOR_SECRET_KEY or --data-dir: exit 2 naming both, and nothing written into the cwd", async () => {
    const serve = startCli(["serve", "--database-url", UNUSED_URL, "--port", "0"], {
      cwd,
      env: envWithout("PROCTOR_SECRET_KEY", "PROCTOR_DATA_DIR", "PROCTOR_DATABASE_URL"),
    })
    // A server that starts anyway would listen: stop it rather than wait for an exit that never comes.
    const timer = setTimeout(() => serve.child.kill("SIGKILL"), 20_000)
    const result = await serve.done
    clearTimeout(timer)
    expect(result.code, result.stdout).toBe(2)
    expect(result.stderr).toMatch(/PROCTOR_SECRET_KEY \(32 random bytes in base64/)
    expect(result.stderr).toContain("--data-dir DIR")
    expect(result.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1)
    expect(existsSync(join(cwd, ".proctor"))).toBe(false)
  })

  it.skipIf(!hasPg)(
    "with PROCTOR_SECRET_KEY: starts, says where its key comes from, writes nothing into the cwd",
    async () => {
      const url = `postgres://postgres@127.0.0.1:5432/${database}`
      const serve = startCli(["serve", "--database-url", url, "--port", "0"], {
        cwd,
        env: { ...envWithout("PROCTOR_DATA_DIR"), PROCTOR_SECRET_KEY: "r9-cli-test-key-0123456789abcdef0123456789" },
      })
      try {
        await waitFor("the server to listen", () => /listening on http/.test(serve.stdout()), 30_000)
        expect(serve.stdout()).toContain("data in PostgreSQL, secret key from PROCTOR_SECRET_KEY")
        expect(existsSync(join(cwd, ".proctor"))).toBe(false)
      } finally {
        serve.child.kill("SIGKILL")
        await serve.done
      }
    },
  )
})
