import { execFileSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { DockerRuntime } from "../src/index.js"
import { describeRuntime, newRunId, specFor } from "./sandboxContract.js"

const containersOf = (runId: string): Array<string> =>
  execFileSync("docker", ["ps", "-aq", "--filter", `label=proctor.run=${runId}`], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((id) => `container ${id}`)

describeRuntime({
  name: "docker",
  make: DockerRuntime.make(),
  makeWithRelay: (relay) => DockerRuntime.make({ relay }),
  image: { _tag: "Named", name: "proctor-busybox" },
  pythonImage: { _tag: "Named", name: "proctor-debian" },
  leftovers: containersOf,
  killFromOutside: (_runId, sandboxId) => {
    execFileSync("docker", ["kill", sandboxId], { stdio: "ignore" })
  },
})

describe("docker: images", () => {
  it.live("builds a Dockerfile context once, by content, and names a missing image clearly", () =>
    Effect.gen(function* () {
      const context = mkdtempSync(join(tmpdir(), "proctor-image-"))
      const marker = crypto.randomUUID()
      writeFileSync(join(context, "Dockerfile"), `FROM proctor-busybox\nRUN echo ${marker} > /marker\nWORKDIR /app\n`)
      const runtime = yield* DockerRuntime.make()
      const image = { _tag: "Dockerfile", context } as const
      yield* runtime.prepare(image)
      // Sorted: Docker lists images created in the same second in no fixed order.
      const tags = () =>
        execFileSync("docker", ["images", "--format", "{{.Repository}}:{{.Tag}} {{.ID}}", "proctor-env"], {
          encoding: "utf8",
        })
          .split("\n")
          .sort()
          .join("\n")
      const before = tags()
      const runId = newRunId()
      const sandbox = yield* runtime.open(specFor(runId, image))
      expect((yield* sandbox.exec("cat /marker")).stdout).toBe(`${marker}\n`)
      expect(tags()).toBe(before)

      writeFileSync(join(context, "Dockerfile"), "FROM proctor-busybox\nRUN exit 3\n")
      const broken = yield* Effect.flip(runtime.prepare(image))
      expect(broken.reason).toBe("BuildFailed")
      expect(broken.message).toContain("exit 3")
      const missing = yield* Effect.flip(runtime.prepare({ _tag: "Named", name: "proctor-no-such-image:1" }))
      expect(missing).toMatchObject({ reason: "BuildFailed" })
      expect(missing.message).toContain("proctor-no-such-image:1")
    }).pipe(Effect.scoped),
  )

  it.live("a daemon that does not answer makes the runtime Unavailable", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(DockerRuntime.make({ socketPath: join(tmpdir(), "no-docker-here.sock") }))
      expect(error.reason).toBe("Unavailable")
    }).pipe(Effect.scoped),
  )
})
