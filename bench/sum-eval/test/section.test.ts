import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { type SumEvalFigures, sectionText } from "../src/section.js"

/** The figures of the section bench/RESULTS.md held when the prose moved into templates (fixtures/section.md). */
const figures: SumEvalFigures = {
  settings: {
    section: "## sum-eval",
    prompts: 2000,
    concurrency: 32,
    modelLatencyMs: 20,
    rounds: 5,
    peakRssMethod: "GNU time %M (getrusage maxrss)",
    quietWaitS: 60,
    quietCores: 0.25,
    retries: 2,
    bareLoopTarget: 1.3,
    promptfooTarget: 8,
    rssTargetMb: 150,
  },
  measuredAt: "2026-11-24 16:35",
  invokedWith: "--promptfoo /work/tools/promptfoo",
  proctor: "commit 3520428",
  cli: "packages/cli/dist/bin.cjs",
  machine: "2 cores (Intel(R) Xeon(R) Processor), 24 GiB, Linux 6.18.44-fc-v595, Node v20.20.2",
  loadBefore: "4.48 / 2.28 / 1.50",
  loadAfter: "1.65 / 1.94 / 1.49",
  tableRows: [
    "| bare loop (`bareLoop.js`) | 2.20 | 1.97–2.50 | 1.00× | 0.92 | 2.04 | 2.99 | 62.8 | 0.899 | 0.00 |",
    "| bare loop, model behind a bare proxy (`bareProxyMain.js`) | 2.13 | 1.97–2.74 | 0.97× | 1.23 | 1.73 | 2.95 | 63.0 | 0.899 | 0.00 |",
    "| `proctor eval` (interception on) | 2.65 | 2.55–2.98 | 1.21× | 2.14 | 1.62 | 3.76 | 108.1 | 0.899 | 0.00 |",
    "| `promptfoo eval` 0.123.1 | 18.18 | 16.95–20.11 | 8.28× | 18.98 | 0.24 | 19.38 | 391.9 | 0.899 | 0.02 |",
  ],
  perRound:
    "round 1: 2.50 s · 2.74 s · 2.55 s · 18.18 s; round 2: 1.97 s · 1.97 s · 2.65 s · 18.75 s; round 3: 2.16 s · 2.13 s · 2.98 s · 20.11 s; round 4: 2.29 s · 2.08 s · 2.93 s · 17.93 s; round 5: 2.20 s · 2.26 s · 2.57 s · 16.95 s",
  proctorVsBare: "1.21×",
  proctorWallS: "2.65",
  bareWallS: "2.20",
  bareLoopVerdict: "**met**",
  proxiedVsBare: "0.97×",
  proxiedWallS: "2.13",
  proctorVsProxied: "1.24×",
  proctorRssMb: "108.1",
  rssVerdict: "**met**",
  promptfoo: {
    dir: "/work/tools/promptfoo",
    version: "0.123.1",
    node: "/work/tools/promptfoo/node_modules/node/bin/node",
    vsProctor: "6.85×",
    wallS: "18.18",
    verdict: "**missed**",
    bound: { askedS: "2.27", vsBare: "8.28×" },
  },
  discarded: null,
  disturbed: null,
}

describe("the sum-eval section", () => {
  it("reads as it did when its prose was written in report.ts, for the same figures", () => {
    expect(sectionText(figures)).toBe(readFileSync(new URL("fixtures/section.md", import.meta.url), "utf8"))
  })

  it("says what was not measured and what was disturbed in the templates' words", () => {
    const text = sectionText({
      ...figures,
      invokedWith: "",
      promptfoo: null,
      discarded: "proctor 2.99 s (others 0.40)",
      disturbed: { count: 1, kept: 15 },
    })
    expect(text).toContain(
      "(bench/sum-eval); proctor at commit 3520428; promptfoo not measured (give `--promptfoo DIR`",
    )
    expect(text).toContain("- ≥ 8× faster than promptfoo: **not measured** (no `--promptfoo DIR`).")
    expect(text).toContain("\n\nDiscarded as disturbed: proctor 2.99 s (others 0.40).\n\n1 of 15 kept runs")
    expect(text).not.toContain("{{")
  })
})
