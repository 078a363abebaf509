import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { API_DOCS_PATH, createJobServer, registeredRoutes } from "@proctor/server"
import { LinkChecker, LinkState } from "linkinator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cliCommands, flagsOf } from "../src/cliReference.js"
import { configKeys } from "../src/configReference.js"
import { slug } from "../src/markdown.js"
import { type ServedSite, SITE_DIR, serveSite } from "./serveSite.js"

/** The built site (`pnpm docs:build`), as a reader's browser gets it. */
describe("the built docs site", () => {
  let site: ServedSite
  beforeAll(async () => {
    site = await serveSite()
  })
  afterAll(() => site?.close())

  it("has no broken internal link or anchor", async () => {
    const checker = new LinkChecker()
    const { links } = await checker.check({
      path: `${site.url}/`,
      recurse: true,
      checkFragments: true,
      concurrency: 8,
      // A request that fails outright (status 0: a loaded machine's socket timing out) is asked again before it
      // counts; a missing page answers 404 every time and still fails.
      retryErrors: true,
      retryErrorsCount: 3,
      // Only the site's own pages: nothing outside loopback can be reached here, and it is not ours to check.
      linksToSkip: async (link) => !link.startsWith(site.url),
    })
    const broken = links
      .filter((link) => link.state === LinkState.BROKEN)
      .map((link) => `${link.url} (status ${link.status}) on ${link.parent}`)
    expect(broken).toEqual([])
    // The crawl reached the whole site, TypeDoc's pages included.
    const pages = new Set(links.filter((link) => link.state === LinkState.OK).map((link) => link.url.split("#")[0]))
    expect(pages.size).toBeGreaterThan(100)
  }, 240_000)

  const html = (page: string) => readFileSync(join(SITE_DIR, page), "utf8")
  /** The ids of a page's headings: a key, command or route has a section of its own. */
  const headingIds = (page: string) => new Set([...html(page).matchAll(/<h[1-6][^>]* id="([^"]+)"/g)].map((m) => m[1]))
  /** The HTML of a page's `##` section with this id, up to the next `##`. */
  const section = (page: string, id: string) => {
    const text = html(page)
    const start = text.indexOf(`<h2 id="${id}"`)
    if (start === -1) return ""
    const end = text.indexOf("<h2 ", start + 1)
    return text.slice(start, end === -1 ? undefined : end)
  }

  it("documents every config key, CLI command and flag, and HTTP route the code has", async () => {
    const configIds = headingIds("reference/config.html")
    expect(
      configKeys()
        .filter((key) => !configIds.has(slug(key.path)))
        .map((key) => key.path),
    ).toEqual([])

    const missingFlags = cliCommands().flatMap(({ name, command }) => {
      const body = section("reference/cli.html", slug(name))
      if (body === "") return [name]
      return flagsOf(command)
        .filter((flag) => !body.includes(`<code>${flag}`))
        .map((flag) => `${name} ${flag}`)
    })
    expect(missingFlags).toEqual([])

    // Routes as the server registers them (its router), not as the OpenAPI document lists them.
    const dataDir = mkdtempSync(join(tmpdir(), "proctor-docs-routes-"))
    const server = await createJobServer({ dataDir })
    try {
      const httpIds = headingIds("reference/http-api.html")
      // /docs's scripts and styles are that page's own files, not API.
      const routes = registeredRoutes(server.app).filter((route) => !route.path.startsWith(`${API_DOCS_PATH}/`))
      expect(routes.length).toBeGreaterThan(10)
      expect(routes.filter((route) => !httpIds.has(slug(`${route.method} ${route.path}`)))).toEqual([])
    } finally {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
