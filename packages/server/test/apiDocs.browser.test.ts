import { launchChromium, screenshotPath } from "@proctor/browser-test"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { API_DOCS_PATH, buildOpenApi } from "../src/index.js"
import { startTestServer, type TestServer } from "./api.harness.js"

type Chromium = Awaited<ReturnType<typeof launchChromium>>

/** The job server's `/docs`: the server's own page renders every route of its OpenAPI document. */
describe("GET /docs in Chromium", () => {
  let server: TestServer
  let chromium: Chromium
  beforeAll(async () => {
    ;[server, chromium] = await Promise.all([startTestServer(), launchChromium()])
  })
  afterAll(async () => {
    await Promise.all([chromium?.close(), server?.close()])
  })

  it("renders every route from the server's own files, fetching nothing from elsewhere", async () => {
    const page = await chromium.newPage()
    const requested: Array<string> = []
    page.on("request", (request) => requested.push(request.url()))
    await page.goto(`${server.url}${API_DOCS_PATH}`)
    await page.locator(".operation").first().waitFor({ timeout: 30_000 })

    const rendered = await page
      .locator(".operation")
      .evaluateAll((blocks) =>
        blocks.map(
          (block) =>
            `${block.querySelector(".method")?.textContent?.trim()} ${block.querySelector(".path")?.textContent?.trim()}`,
        ),
      )
    const documented = Object.entries(buildOpenApi({ version: "0" }).paths as Record<string, object>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(rendered.sort()).toEqual(documented.sort())
    await expect(page.locator("h1").textContent()).resolves.toContain("proctor eval job API")
    // Every schema an operation names is on the page, so each link lands somewhere.
    const links = await page.locator('a[href^="#schema-"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")))
    expect(links.length).toBeGreaterThan(0)
    for (const link of new Set(links)) await expect(page.locator(link ?? "#none").count()).resolves.toBe(1)
    await page.screenshot({ path: screenshotPath("server-api-docs"), fullPage: true })
    expect(requested.filter((url) => !url.startsWith(server.url))).toEqual([])
  })
})
