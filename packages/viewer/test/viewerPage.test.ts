import { describe, expect, it } from "@effect/vitest"
import type { EvalResult } from "@proctor/core"
import {
  type EmbeddedData,
  embeddedDataTag,
  embeddedRolloutTag,
  ROW_ERROR_CHARS,
  rolloutRow,
  rolloutTagId,
  viewerPage,
  viewerPageParts,
} from "../src/index.js"

const scriptText = (html: string, id: string): string => {
  const match = new RegExp(`<script id="${id}" type="application/json">([\\s\\S]*?)</script>`).exec(html)
  if (match === null) throw new Error(`no ${id} tag`)
  return match[1]!
}

const result = (over: Partial<EvalResult> = {}): EvalResult => ({
  seed: 3,
  score: 1,
  reward_mean: 1,
  outcome_score: 1,
  events_score: null,
  latency_ms: 12,
  verifier_score: null,
  tokens: 40,
  cost_usd: null,
  error: null,
  attempt: 1,
  status: "ok",
  error_kind: null,
  retries: 0,
  started_at: "2026-01-01T00:00:00.000Z",
  finished_at: "2026-01-01T00:00:01.000Z",
  ...over,
})

describe("viewerPage", () => {
  it("is one self-contained document: no script, style or link fetched from anywhere but its data API", () => {
    const html = viewerPage({ mode: "local", base: "api" })
    const links = (page: string) => Array.from(page.matchAll(/<link[^>]+href="([^"]*)"/g), (match) => match[1])
    expect(html.startsWith("<!doctype html>")).toBe(true)
    expect(html).not.toMatch(/<script[^>]+src=/)
    // An empty icon (no request for /favicon.ico), and the data API's first answers, preloaded.
    expect(links(html)).toEqual(["data:,", "api/runs", "api/runs/0/rows?from=0&limit=500"])
    expect(links(viewerPage({ mode: "server", base: "api" }))).toEqual(["data:,"])
    expect(links(viewerPage({ mode: "embedded", base: "" }))).toEqual(["data:,"])
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/)
    expect(JSON.parse(scriptText(html, "proctor-config"))).toEqual({ mode: "local", base: "api" })
    expect(html).not.toContain('id="proctor-data"')
  })

  it("embeds data that cannot close its script tag, and reads back as the same JSON", () => {
    const hostile = "</script><script>alert(1)</script><!-- \u2028"
    const data: EmbeddedData = {
      runs: [],
      rows: [[rolloutRow(result({ status: "error", score: null, error: hostile, error_kind: "solver" }), 0, 1)]],
      rollouts: {},
      omitted: 0,
    }
    const html = viewerPage({ mode: "embedded", base: "" }, data)
    expect(html.match(/<\/script>/g)).toHaveLength(html.match(/<script/g)!.length)
    expect(JSON.parse(scriptText(html, "proctor-data"))).toEqual({ ...data, rollouts: undefined })
  })

  it("puts each transcript in a tag of its own, found by its key", () => {
    const detail = { result: result({ error: "</script>" }), calls: [] }
    const data: EmbeddedData = { runs: [], rows: [], rollouts: { "0/3/1": detail }, omitted: 2 }
    const html = viewerPage({ mode: "embedded", base: "" }, data)
    expect(JSON.parse(scriptText(html, rolloutTagId("0/3/1")))).toEqual(detail)
    const { before, after } = viewerPageParts({ mode: "embedded", base: "" })
    const { rollouts: _, ...head } = data
    expect(`${before}${embeddedDataTag(head)}${embeddedRolloutTag("0/3/1", detail)}${after}`).toBe(html)
  })
})

describe("rolloutRow", () => {
  it("passes by the run's threshold; an error is neither passed nor wrong", () => {
    expect(rolloutRow(result({ score: 0.7 }), 2, 0.5).passed).toBe(true)
    expect(rolloutRow(result({ score: 0.4 }), 2, 0.5).passed).toBe(false)
    expect(rolloutRow(result({ status: "error", score: null, error_kind: "timeout" }), 0, 0.5).passed).toBeNull()
    expect(rolloutRow(result({ score: null }), 0, 0.5).passed).toBeNull()
  })

  it("cuts a long error to a preview and takes turns from the task app, else from the calls", () => {
    const row = rolloutRow(result({ status: "error", error: "x".repeat(5000), details: { turns: 7 } }), 3, 1)
    expect(row.error).toHaveLength(ROW_ERROR_CHARS)
    expect(row.turns).toBe(7)
    expect(rolloutRow(result({ details: { num_steps: 4 } }), 3, 1).turns).toBe(4)
    expect(rolloutRow(result(), 3, 1).turns).toBe(3)
    expect(rolloutRow(result(), 0, 1).turns).toBeNull()
  })
})
