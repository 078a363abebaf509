import { launchChromium, screenshotPath } from "@proctor/browser-test"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { API_DOCS_PATH, buildOpenApi } from "../src/index.js"
import { startTestServer, type TestServer } from "./api.harness.js"

type Chromium = Awaited<ReturnType<typeof launchChromium>>

/** The job server's `/docs`: Swagger UI, served by the server itself, renders every route of its OpenAPI document. */
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
    await page.locator(".opblock").first().waitFor({ timeout: 30_000 })

    const rendered = await page
      .locator(".opblock")
      .evaluateAll((blocks) =>
        blocks.map(
          (block) =>
            `${block.querySelector(".opblock-summary-method")?.textContent?.trim()} ${block.querySelector(".opblock-summary-path")?.getAttribute("data-path")}`,
        ),
      )
    const documented = Object.entries(buildOpenApi({ version: "0" }).paths as Record<string, object>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(rendered.sort()).toEqual(documented.sort())
    await expect(page.locator(".info .title").textContent()).resolves.toContain("proctor eval job API")
    await page.screenshot({ path: screenshotPath("server-api-docs"), fullPage: true })
    expect(requested.filter((url) => !url.startsWith(server.url))).toEqual([])
  })
})
