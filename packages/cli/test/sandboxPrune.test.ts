import { execFileSync } from "node:child_process"
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { ensureBuilt, runCli } from "./fixtures/harness.js"

/** `proctor sandbox prune`: what a crash left (a labelled container here) is removed and counted. */

beforeAll(() => ensureBuilt(), 300_000)

const containersOf = (runId: string): Array<string> =>
  execFileSync("docker", ["ps", "-aq", "--filter", `label=proctor.run=${runId}`], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)

describe("proctor sandbox prune", () => {
  it("removes the containers a crashed run left and says how many", async () => {
    const runId = `prune-cli-${crypto.randomUUID().slice(0, 8)}`
    for (let i = 0; i < 2; i++) {
      execFileSync("docker", [
        "create",
        "--network",
        "none",
        "--label",
        "proctor.sandbox=1",
        "--label",
        `proctor.run=${runId}`,
        "proctor-busybox",
        "sleep",
        "infinity",
      ])
    }
    expect(containersOf(runId)).toHaveLength(2)
    const result = await runCli(["sandbox", "prune", "--run", runId, "--sandbox", "docker"])
    expect(result).toMatchObject({ code: 0, stdout: `docker: removed 2 sandboxes of run ${runId}\n`, stderr: "" })
    expect(containersOf(runId)).toEqual([])

    const both = await runCli(["sandbox", "prune", "--run", runId])
    expect(both.code).toBe(0)
    expect(both.stdout).toBe(
      `docker: removed 0 sandboxes of run ${runId}\nbwrap: removed 0 sandboxes of run ${runId}\n`,
    )
  })

  it("refuses an unknown runtime in one line, exit 2", async () => {
    const result = await runCli(["sandbox", "prune", "--sandbox", "podman"])
    expect(result.code).toBe(2)
    expect(result.stderr.trim().split("\n")).toHaveLength(1)
    expect(result.stderr).toContain("podman")
  })
})
