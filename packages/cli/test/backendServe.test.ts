import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { cleanEnv, ensureBuilt, runCli, startCli } from "./fixtures/harness.js"

/** `proctor serve` and `proctor keys` as processes: a key made on the command line works against the server. */

const STACK_FRAME = /^\s+at\s/m
let tmp: string

beforeAll(() => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-serve-"))
}, 300_000)

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true })
})

describe("proctor serve and proctor keys", () => {
  it("create a key, serve, use it, revoke it, and drain on SIGTERM", async () => {
    const dataDir = join(tmp, "data")
    const created = await runCli(["keys", "create", "--name", "ci", "--data-dir", dataDir], { cwd: tmp })
    expect(created.code, created.stderr).toBe(0)
    const key = created.stdout.trim()
    expect(key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/)
    expect(created.stderr).toContain("not shown again")

    const serve = startCli(["serve", "--data-dir", dataDir, "--port", "0"], { cwd: tmp, env: cleanEnv() })
    await waitFor("the server to listen", () => /listening on http/.test(serve.stdout()), 30_000)
    const url = /listening on (http\S+)/.exec(serve.stdout())![1]!

    const listed = await runCli(["jobs", "list", "--backend", url], {
      cwd: tmp,
      env: cleanEnv({ PROCTOR_API_KEY: key }),
    })
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toBe("no jobs\n")

    const keys = await runCli(["keys", "list", "--data-dir", dataDir, "--json"], { cwd: tmp })
    const [record] = JSON.parse(keys.stdout) as Array<{ id: string; name: string; prefix: string }>
    expect(record).toMatchObject({ name: "ci", prefix: key.slice(0, 11) })
    expect(keys.stdout).not.toContain(key)
    const revoked = await runCli(["keys", "revoke", record!.id, "--data-dir", dataDir], { cwd: tmp })
    expect(revoked.code, revoked.stderr).toBe(0)
    const refused = await runCli(["jobs", "list", "--backend", url], {
      cwd: tmp,
      env: cleanEnv({ PROCTOR_API_KEY: key }),
    })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("refused the API key")
    expect(refused.stderr).not.toContain(key)

    serve.child.kill("SIGTERM")
    const stopped = await serve.done
    expect(stopped.code, stopped.stderr).toBe(0)
    // The key exists only in its owner's hands: the data directory keeps its hash.
    for (const file of readdirSync(dataDir)) {
      if (file.endsWith(".db")) expect(readFileSync(join(dataDir, file)).includes(key)).toBe(false)
    }
  })

  it("bad flags exit 2 naming the flag", async () => {
    const [port, name, unknownKey] = await Promise.all([
      runCli(["serve", "--port", "http"], { cwd: tmp }),
      runCli(["keys", "create", "--data-dir", join(tmp, "d2")], { cwd: tmp }),
      runCli(["keys", "revoke", "key_nope", "--data-dir", join(tmp, "d3")], { cwd: tmp }),
    ])
    expect(port.code).toBe(2)
    expect(port.stderr).toContain('--port: expected an integer from 0 to 65535, got "http"')
    expect(name.code).toBe(2)
    expect(name.stderr).toContain("--name")
    expect(unknownKey.code).toBe(2)
    expect(unknownKey.stderr).toContain("no active key key_nope")
    for (const result of [port, name, unknownKey]) expect(result.stderr).not.toMatch(STACK_FRAME)
  })
})
