import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { waitFor } from "@proctor/test-kit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createTestDatabase } from "../../server/test/jobs.pg.js"
import { type CliProcess, type CliResult, captured, cleanEnv, startExample } from "./fixtures/harness.js"
import { envFor, type InstalledProject, installedProject, type NodeRuntime, nodeRuntime } from "./packaging/installs.js"
import { type PackedSet, packPublicPackages } from "./packaging/tarballs.js"

/**
 * The installed CLI (packages packed and installed with npm, as packaging.test.ts does) on each Node version
 * users run: 20 (the machine's), 22, 24 and 26 from the npm packages `node@N`, each install built against its
 * own Node's headers. Every command runs at least once — `serve` and `worker` started and stopped with SIGTERM —
 * and must exit with its own code, never a signal (Node 24 and 26 once aborted at exit: better-sqlite3's
 * statements collected without a Node environment). Then `keys create` and `serve`-then-SIGTERM several times in a
 * row: 5 each in the suite, `PROCTOR_TEST_REPEATS=20` for the longer watch the abort was first caught with. Node
 * versions and installs are cached outside the repository (packaging/installs.ts); `PROCTOR_TEST_NODES=20,24`
 * narrows the versions.
 */

const NODE_MAJORS = (process.env.PROCTOR_TEST_NODES ?? "20,22,24,26").split(",").map(Number)
const REPEATS = Number(process.env.PROCTOR_TEST_REPEATS ?? 5)

/** What dies by a signal or says it aborted did not exit with its own code. */
const expectOwnExit = (result: CliResult, expected: number, what: string) => {
  const said = `${what}: code ${result.code}, signal ${result.signal}\n${result.stdout.slice(-1000)}\n${result.stderr.slice(-3000)}`
  expect(result.signal, said).toBeNull()
  expect(result.stderr, said).not.toMatch(/Assertion failed|Aborted|core dumped|Segmentation fault/)
  expect(result.code, said).toBe(expected)
}

describe("the installed CLI on Node 20, 22, 24 and 26", () => {
  let packed: PackedSet
  let model: { readonly url: string; readonly stop: () => Promise<void> }
  let math: { readonly url: string; readonly stop: () => Promise<void> }
  let database: { readonly url: string; readonly drop: () => Promise<void> }
  const secretKey = randomBytes(32).toString("base64")

  /** Each Node version's install, begun together: downloads and Node 20's native build overlap. */
  const installs = new Map<number, Promise<{ readonly runtime: NodeRuntime; readonly project: InstalledProject }>>()

  beforeAll(async () => {
    packed = await packPublicPackages()
    for (const major of NODE_MAJORS) {
      const install = nodeRuntime(major).then(async (runtime) => ({
        runtime,
        project: await installedProject(packed, runtime),
      }))
      // Awaited by the version's own tests; a failure is theirs, not an unhandled rejection here.
      install.catch(() => {})
      installs.set(major, install)
    }
    ;[model, math, database] = await Promise.all([
      startExample("examples/baseline-model/dist/main.js", cleanEnv({ PORT: "0" })),
      startExample("examples/math/dist/main.js", cleanEnv({ PORT: "0", ENVIRONMENT_API_KEY: "dev" })),
      createTestDatabase(),
    ])
  }, 900_000)

  afterAll(async () => {
    await Promise.all([model?.stop(), math?.stop(), database?.drop()])
    if (packed !== undefined) rmSync(packed.dir, { recursive: true, force: true })
  })

  for (const major of NODE_MAJORS) {
    describe(`Node ${major}`, () => {
      let runtime: NodeRuntime
      let project: InstalledProject
      let dataDir: string

      beforeAll(async () => {
        ;({ runtime, project } = await installs.get(major)!)
        dataDir = mkdtempSync(join(tmpdir(), "proctor-data-"))
      }, 900_000)
      afterAll(() => {
        for (const dir of [project?.dir, dataDir]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
      })

      /** The installed `proctor` (node_modules/.bin, as npx runs it) on this Node. */
      const start = (args: ReadonlyArray<string>, extraEnv: Record<string, string> = {}): CliProcess => {
        const child = spawn(join(project.dir, "node_modules/.bin/proctor"), args, {
          cwd: project.dir,
          env: envFor(runtime, cleanEnv({ ENVIRONMENT_API_KEY: "dev", ...extraEnv })),
          stdio: ["ignore", "pipe", "pipe"],
        })
        return captured(child)
      }
      const proctor = (args: ReadonlyArray<string>, expected = 0, extraEnv: Record<string, string> = {}) =>
        start(args, extraEnv).done.then((result) => {
          expectOwnExit(result, expected, `proctor ${args.join(" ")} on Node ${runtime.version}`)
          return result
        })
      /** A long-running command: ready once its output matches, then stopped with SIGTERM. */
      const startedThenStopped = async (
        args: ReadonlyArray<string>,
        ready: RegExp,
        use: (output: string) => Promise<void> = async () => {},
        extraEnv: Record<string, string> = {},
      ) => {
        const running = start(args, extraEnv)
        await waitFor(
          `proctor ${args[0]} to be ready on Node ${runtime.version}:\n${running.stderr()}`,
          () => ready.test(running.stdout()) || running.child.exitCode !== null,
          60_000,
        )
        expect(running.stdout(), running.stderr()).toMatch(ready)
        await use(running.stdout())
        running.child.kill("SIGTERM")
        const result = await running.done
        expectOwnExit(result, 0, `proctor ${args.join(" ")} stopped with SIGTERM on Node ${runtime.version}`)
      }

      const evalArgs = (runDir: string) => [
        "eval",
        "math",
        "--url",
        math.url,
        "--seeds",
        "0-4",
        "--model",
        "baseline",
        "--inference-url",
        `${model.url}/v1`,
        "--run-dir",
        runDir,
      ]

      it("runs every command, each to its own exit code", async () => {
        expect(runtime.major).toBe(major)
        await proctor(["--version"])
        await proctor(["--help"])
        await proctor(evalArgs("runs/a"))
        await proctor(evalArgs("runs/b"))
        await proctor(["eval", "--resume", "runs/a"])
        await proctor(["report", "runs/a", "--html", "runs/a.html"])
        await proctor(["export", "runs/a", "--format", "csv", "--output", "runs/a.csv"])
        await proctor(["compare", "runs/a", "runs/b"])
        await proctor(["task-app", "check", math.url, "--model", "baseline", "--inference-url", `${model.url}/v1`])
        await startedThenStopped(["view", "runs/a", "--port", "0"], /proctor view: http/)

        const created = await proctor(["keys", "create", "--name", "ops", "--data-dir", dataDir, "--json"])
        const { id } = JSON.parse(created.stdout) as { id: string }
        await proctor(["keys", "list", "--data-dir", dataDir])
        await proctor(["keys", "revoke", id, "--data-dir", dataDir])
        const key = (await proctor(["keys", "create", "--name", "ci", "--data-dir", dataDir])).stdout.trim()

        await startedThenStopped(
          ["serve", "--data-dir", dataDir, "--port", "0"],
          /listening on http\S+/,
          async (output) => {
            const backend = /listening on (http\S+)/.exec(output)![1]!
            const jobs = ["--backend", backend, "--api-key", key]
            const submit = async (seeds: string) => {
              const response = await fetch(`${backend}/api/eval/jobs`, {
                method: "POST",
                headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
                body: JSON.stringify({
                  task_app_url: math.url,
                  task_app_api_key: "dev",
                  app_id: "math",
                  env_name: "math",
                  seeds: [seeds],
                  policy: { model: "baseline", inference_url: `${model.url}/v1`, policy_name: "math-react" },
                }),
              })
              expect(response.status, await response.clone().text()).toBeLessThan(300)
              return ((await response.json()) as { job_id: string }).job_id
            }
            const done = await submit("0-2")
            await proctor(["jobs", "watch", done, ...jobs])
            await proctor(["jobs", "list", ...jobs])
            await proctor(["jobs", "show", done, ...jobs])
            await proctor(["jobs", "results", done, ...jobs])
            await proctor(["jobs", "traces", done, "--out", "runs/job-traces", ...jobs])
            await proctor(["jobs", "cancel", await submit("0-999"), ...jobs])
          },
        )
        await startedThenStopped(
          [
            "worker",
            "--database-url",
            database.url,
            "--redis-url",
            "redis://127.0.0.1:6379",
            "--redis-prefix",
            `proctor-packaging-${randomBytes(4).toString("hex")}`,
          ],
          /proctor worker \S+ running/,
          async () => {},
          { PROCTOR_SECRET_KEY: secretKey },
        )
      }, 900_000)

      it(`runs ${REPEATS} keys create and ${REPEATS} serve-then-SIGTERM in a row without an abort`, async () => {
        for (let i = 0; i < REPEATS; i++) await proctor(["keys", "create", "--name", `k${i}`, "--data-dir", dataDir])
        for (let i = 0; i < REPEATS; i++) {
          await startedThenStopped(["serve", "--data-dir", dataDir, "--port", "0"], /listening on http/)
        }
      }, 900_000)
    })
  }
})
