import { launchChromium, screenshotPath } from "@proctor/browser-test"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServedSite, serveSite } from "./serveSite.js"

type Chromium = Awaited<ReturnType<typeof launchChromium>>

/** The built site in real Chromium, served on loopback as a static host would serve it. */
describe("the docs site in Chromium", () => {
  let site: ServedSite
  let chromium: Chromium
  let page: Page
  const errors: Array<string> = []
  beforeAll(async () => {
    ;[site, chromium] = await Promise.all([serveSite(), launchChromium()])
    page = await chromium.newPage()
    await page.setViewportSize({ width: 1280, height: 900 })
    page.on("pageerror", (error) => errors.push(error.message))
    page.on("response", (response) => {
      if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`)
    })
  })
  afterAll(async () => {
    await Promise.all([chromium?.close(), site?.close()])
  })

  it("the home page says what proctor is and leads to the guides", async () => {
    await page.goto(`${site.url}/`)
    await expect(page.locator(".VPHero .name").textContent()).resolves.toContain("proctor")
    await page.screenshot({ path: screenshotPath("docs-home") })
    await page.getByRole("link", { name: "Quick start" }).first().click()
    await page.waitForURL(/\/guide\/quick-start/)
    // The router changes the URL before it renders the page: wait for the guide's heading, not the home page's.
    await page.locator("h1", { hasText: "Quick start" }).waitFor()
    expect(errors).toEqual([])
  })

  it("a guide renders its code blocks and its outline", async () => {
    await page.goto(`${site.url}/guide/concepts.html`)
    await expect(page.locator("h1").textContent()).resolves.toContain("Concepts")
    expect(await page.locator(".VPDocAsideOutline a").count()).toBeGreaterThan(3)
    await page.screenshot({ path: screenshotPath("docs-guide-concepts") })
    expect(errors).toEqual([])
  })

  it("the config reference has a section per key, linked from the outline", async () => {
    await page.goto(`${site.url}/reference/config.html`)
    await page.locator(".VPDocAsideOutline a", { hasText: /^concurrency$/ }).click()
    await page.waitForURL(/#concurrency$/)
    await expect(page.locator("h3#concurrency").isVisible()).resolves.toBe(true)
    await page.screenshot({ path: screenshotPath("docs-config-reference") })
    expect(errors).toEqual([])
  })

  it('local search finds "concurrency" and opens the config key', async () => {
    await page.goto(`${site.url}/`)
    await page.locator(".DocSearch-Button, .VPNavBarSearchButton").first().click()
    const input = page.locator(".VPLocalSearchBox input")
    await input.fill("concurrency")
    const results = page.locator(".VPLocalSearchBox .result")
    await results.first().waitFor()
    const titles = await results.allTextContents()
    expect(titles.some((title) => /config keys/i.test(title) && /concurrency/.test(title))).toBe(true)
    await page.screenshot({ path: screenshotPath("docs-search-concurrency") })
    await results
      .filter({ hasText: /Config keys/ })
      .filter({ hasText: /concurrency/ })
      .first()
      .click()
    await page.waitForURL(/\/reference\/config(\.html)?#concurrency$/)
    expect(errors).toEqual([])
  })
})
