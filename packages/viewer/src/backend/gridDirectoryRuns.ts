import { basename, resolve } from "node:path"
import { readGridManifest, variantRunDir } from "@proctor/core"
import { Effect } from "effect"
import type { GridSpec } from "../gridView.js"
import { openRunDirectoryRun } from "./runDirectoryRun.js"

/**
 * A grid run directory (`grid.json` and `variants/{name}/`) as the viewer serves it: each variant's run directory a
 * run of its own, named by the variant and followed like any run directory, in the grid's order; and the grid over
 * them.
 */
export const openGridDirectoryRuns = (dir: string, options: { readonly followEveryMs?: number | undefined } = {}) =>
  Effect.gen(function* () {
    const manifest = yield* readGridManifest(dir)
    const runs = yield* Effect.forEach(manifest.variants, (variant) =>
      openRunDirectoryRun(variantRunDir(dir, variant.name), {
        name: variant.name,
        followEveryMs: options.followEveryMs,
      }),
    )
    const grid: GridSpec = { name: basename(resolve(dir)), variants: manifest.variants }
    return { runs, grid }
  })
