import { existsSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import sirv from "sirv"

/** The built site (`pnpm docs:build`); the tests check what a reader gets, not the sources. */
export const SITE_DIR = fileURLToPath(new URL("../.vitepress/dist/", import.meta.url))

export interface ServedSite {
  readonly url: string
  readonly close: () => Promise<void>
}

/** Serves the built site on loopback as a static host would (sirv: VitePress's own preview server). */
export const serveSite = async (): Promise<ServedSite> => {
  if (!existsSync(SITE_DIR)) throw new Error(`${SITE_DIR} is missing: build the site first (pnpm docs:build)`)
  const files = sirv(SITE_DIR, { extensions: ["html"], dev: false })
  const server = createServer((request, response) =>
    files(request, response, () => {
      response.statusCode = 404
      response.end("not found")
    }),
  )
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
