import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChromiumSession, launchChromium, screenshotPath } from "@proctor/browser-test"
import type { Page } from "playwright-core"
import { createApiKey } from "../src/index.js"
import {
  apiClient,
  startTestServer,
  startTestTaskApp,
  synthJobBody,
  type TestServer,
  waitForJob,
} from "./api.harness.js"

describe("the team dashboard in Chromium (proctor serve at /)", () => {
  let app: Awaited<ReturnType<typeof startTestTaskApp>>
  let server: TestServer
  let chromium: ChromiumSession
  let aliceKey: string
  let bobKey: string
  let aliceJob: string
  let bobJob: string
  let agentJob: string

  beforeAll(async () => {
    app = await startTestTaskApp()
    server = await startTestServer()
    aliceKey = server.userKey
    bobKey = (await createApiKey({ dataDir: server.dataDir, name: "bob" })).key
    const alice = apiClient(server.url, aliceKey)
    const bob = apiClient(server.url, bobKey)
    aliceJob = (await alice.post("/api/eval/jobs", synthJobBody(app.url, [0, 1, 2]))).body.job_id as string
    bobJob = (await bob.post("/api/eval/jobs", synthJobBody(app.url, [5]))).body.job_id as string
    // An agent job: the oracle carries out one example task in bubblewrap.
    const tasks = fileURLToPath(new URL("../../../examples/tasks", import.meta.url))
    agentJob = (await alice.post("/api/eval/jobs", { tasks, agent: "oracle", sandbox: "bwrap", seeds: [1] })).body
      .job_id as string
    await waitForJob(alice, aliceJob)
    await waitForJob(bob, bobJob)
    await waitForJob(alice, agentJob)
    chromium = await launchChromium()
  })
  afterAll(async () => {
    await chromium?.close()
    await server.close()
    await app.close()
  })

  const signIn = async (key: string): Promise<Page> => {
    const page = await chromium.newPage()
    await page.goto(server.url)
    await page.getByTestId("signin-key").fill(key)
    await page.getByTestId("signin-submit").click()
    return page
  }

  it("signs in with a key kept out of the URL; a bad key is told so", async () => {
    const page = await signIn("pk_not-a-key-this-server-knows")
    await page.getByTestId("signin-error").waitFor()
    await page.screenshot({ path: screenshotPath("dashboard-signin-error") })
    const good = await signIn(aliceKey)
    await good.locator(`[data-testid="job-row"][data-job-id="${aliceJob}"]`).waitFor()
    expect(good.url()).not.toContain(aliceKey)
    expect(await good.evaluate("JSON.stringify(sessionStorage)")).toContain(aliceKey)
    await good.screenshot({ path: screenshotPath("dashboard-jobs") })
  })

  it("shows a key its own jobs only: another key's job is neither listed nor opened by its URL", async () => {
    const bob = await signIn(bobKey)
    await bob.locator(`[data-testid="job-row"][data-job-id="${bobJob}"]`).waitFor()
    expect(await bob.locator(`[data-testid="job-row"][data-job-id="${aliceJob}"]`).count()).toBe(0)
    await bob.goto(`${server.url}#/jobs/${aliceJob}`)
    await bob.getByTestId("job-not-found").waitFor()
    expect(await bob.getByTestId("rollout-row").count()).toBe(0)
    await bob.screenshot({ path: screenshotPath("dashboard-job-not-found") })

    const alice = await signIn(aliceKey)
    // The job opens from its link (the row itself is not a target: a click at its middle may land between cells).
    await alice.locator(`[data-testid="job-row"][data-job-id="${aliceJob}"]`).getByRole("link").click()
    await alice.waitForURL((url) => url.hash.includes(aliceJob))
    await alice.goto(`${server.url}#/jobs/${aliceJob}/rollouts`)
    await alice.locator('[data-testid="rollout-count"][data-count="3"]').waitFor()
    await alice.screenshot({ path: screenshotPath("dashboard-job-rollouts") })
  })

  it("shows an agent job's rollout with its timeline: the setup, the oracle's command, the tests, the reward", async () => {
    const alice = await signIn(aliceKey)
    await alice.locator(`[data-testid="job-row"][data-job-id="${agentJob}"]`).waitFor()
    await alice.goto(`${server.url}#/jobs/${agentJob}/rollouts/1/0`)
    await alice.getByTestId("timeline").waitFor()
    const entries = await alice
      .getByTestId("timeline-entry")
      .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute("data-kind"), node.textContent ?? ""]))
    expect(entries.map(([kind]) => kind)).toContain("command")
    expect(entries.some(([kind, text]) => kind === "note" && text.includes("setup: hello-file"))).toBe(true)
    expect(entries.some(([, text]) => text.includes("reward 1"))).toBe(true)
    await alice.screenshot({ path: screenshotPath("dashboard-agent-timeline") })
  })
})
