import { existsSync, mkdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"

/** Debian's Chromium: Playwright's own browser download cannot work on a machine without internet. */
export const CHROMIUM_PATH = process.env.PROCTOR_CHROMIUM ?? "/usr/bin/chromium"

/** Without the background-networking flags, Chromium's connections to Google's hosts are refused at every start. */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
]

export interface ChromiumSession {
  readonly browser: Browser
  /** A new page in a fresh context (its own sessionStorage and cookies). */
  readonly newPage: () => Promise<Page>
  readonly close: () => Promise<void>
}

/** Starts Debian's Chromium headless; Playwright gives it a fresh empty profile and removes it on close. */
export const launchChromium = async (): Promise<ChromiumSession> => {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is needed for the browser tests: ${CHROMIUM_PATH} does not exist (apt-get install chromium, or set PROCTOR_CHROMIUM)`,
    )
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
  return {
    browser,
    newPage: async () => (await browser.newContext()).newPage(),
    close: () => browser.close(),
  }
}

/**
 * Where tests leave screenshots for a reviewer: `$PROCTOR_SCREENSHOT_DIR/NAME.png`, else under the system's temp
 * directory (`proctor-screenshots/`) — never in the checkout, which the suite leaves as it found it.
 */
export const screenshotPath = (name: string): string => {
  const dir = process.env.PROCTOR_SCREENSHOT_DIR ?? join(tmpdir(), "proctor-screenshots")
  mkdirSync(dir, { recursive: true })
  return join(dir, `${name}.png`)
}
