import { join } from "node:path"
import type { SandboxImage } from "@proctor/core"
import { SandboxError } from "@proctor/core"
import { Effect } from "effect"
import { contextHash } from "./contextHash.js"
import { type DockerApi, readText } from "./DockerApi.js"
import { dockerCall } from "./dockerErrors.js"
import { packHostPath } from "./tar.js"

/** One cache key per image a spec can name. */
const keyOf = (image: SandboxImage): string =>
  image._tag === "Named" ? `name\0${image.name}` : `context\0${image.context}\0${image.dockerfile ?? "Dockerfile"}`

/**
 * Images by name or built from a Dockerfile context, each once: a context's image is tagged
 * `proctor-env:<content hash>` and not built again while that tag exists (in this process or any later one).
 * What was found or built is remembered for the runtime's life, so a run's rollouts do not hash the context and
 * ask the daemon again each time they open a sandbox (`prepare` always looks again); `forget` drops an image the
 * daemon no longer has.
 */
export const makeDockerImages = (docker: DockerApi) => {
  const builds = new Map<string, Promise<void>>()
  const resolved = new Map<string, string>()

  const exists = (name: string, signal: AbortSignal) =>
    docker.raw("GET", `/images/${encodeURIComponent(name)}/json`, undefined, {}, signal).then(async (response) => {
      await response.body.dump()
      return response.status === 200
    })

  const build = async (context: string, dockerfile: string, tag: string): Promise<void> => {
    const tar = packHostPath(context, ".", true)
    const query = new URLSearchParams({ t: tag, dockerfile, rm: "1", forcerm: "1", networkmode: "none" })
    const response = await docker.raw("POST", `/build?${query}`, tar.stdout, { "content-type": "application/x-tar" })
    const text = await readText(response.body)
    await tar.done
    const lines = text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { stream?: string; error?: string })
    const failure = response.status >= 300 ? text : lines.find((line) => line.error !== undefined)?.error
    if (failure !== undefined) {
      const log = lines
        .map((line) => line.stream ?? "")
        .join("")
        .trim()
        .split("\n")
        .slice(-20)
        .join("\n")
      throw new Error(`${failure.trim()}${log === "" ? "" : `\n${log}`}`)
    }
  }

  /** The image's name on the daemon, built first when it comes from a Dockerfile not built before; remembered. */
  const resolve = (image: SandboxImage): Effect.Effect<string, SandboxError> =>
    Effect.tap(lookUp(image), (name) => Effect.sync(() => resolved.set(keyOf(image), name)))

  /** What `resolve` last found for `image` (a sandbox's open, after the run's `prepare`), or `resolve` now. */
  const remembered = (image: SandboxImage): Effect.Effect<string, SandboxError> =>
    Effect.suspend(() => {
      const known = resolved.get(keyOf(image))
      return known === undefined ? resolve(image) : Effect.succeed(known)
    })

  const lookUp = (image: SandboxImage): Effect.Effect<string, SandboxError> => {
    if (image._tag === "Named") {
      return dockerCall("BuildFailed", `checking image ${image.name}`, (signal) => exists(image.name, signal)).pipe(
        Effect.filterOrFail(
          (found) => found,
          () =>
            new SandboxError({
              reason: "BuildFailed",
              message: `image ${image.name} is not on the Docker daemon (no registry is used: build or import it first)`,
            }),
        ),
        Effect.as(image.name),
      )
    }
    const dockerfile = image.dockerfile ?? "Dockerfile"
    return dockerCall("BuildFailed", `building ${join(image.context, dockerfile)}`, async (signal) => {
      const tag = `proctor-env:${await contextHash(image.context, dockerfile)}`
      if (await exists(tag, signal)) return tag
      // Rollouts of one task ask at once: one build, the rest wait for it.
      let pending = builds.get(tag)
      if (pending === undefined) {
        pending = build(image.context, dockerfile, tag).finally(() => builds.delete(tag))
        builds.set(tag, pending)
      }
      await pending
      return tag
    })
  }

  return { resolve, remembered, forget: (image: SandboxImage) => resolved.delete(keyOf(image)) }
}
