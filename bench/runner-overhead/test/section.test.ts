import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { type RunnerOverheadFigures, sectionText } from "../src/section.js"

/** The figures of the section bench/RESULTS.md held when the prose moved into templates (fixtures/section.md). */
const figures: RunnerOverheadFigures = {
  settings: {
    section: "## runner-overhead",
    rollouts: "20,000",
    concurrency: 64,
    warmup: "5,000",
    rounds: 5,
    quietWaitS: 20,
    quietCores: 0.25,
    retries: 1,
    peakRssMethod: "GNU time %M (getrusage maxrss)",
    throughputTarget: 0.7,
    wholeProcessTarget: 0.8,
    rssTargetMb: 200,
  },
  measuredAt: "2026-11-24 17:24",
  invokedWith: "--quiet-wait 20 --retries 1",
  proctor: "commit 7a512d4",
  machine: "2 cores (Intel(R) Xeon(R) Processor), 24 GiB, Linux 6.18.44-fc-v595, Node v20.20.2",
  loadBefore: "0.72 / 2.40 / 3.05",
  loadAfter: "1.46 / 2.12 / 2.87",
  roundRows: [
    "| 1 | 20,100 | 9,991 | 12,173 | bare loop | 10,092 | 10,425 | 1.03× | 1.98 / 1.92 | 90.4 / 109.7 | 0.00 / 0.00 / 0.00 / 0.00 |",
    "| 2 | 26,054 | 20,338 | 12,461 | proctor | 13,327 | 10,898 | 0.82× | 1.50 / 1.84 | 88.4 / 112.2 | 0.03 / 0.01 / 0.00 / 0.00 |",
    "| 3 | 27,940 | 19,054 | 11,813 | bare loop | 14,422 | 10,416 | 0.72× | 1.39 / 1.92 | 90.2 / 108.2 | 0.01 / 0.00 / 0.03 / 0.04 |",
    "| 4 | 29,360 | 18,955 | 12,912 | proctor | 13,970 | 11,411 | 0.82× | 1.43 / 1.75 | 90.5 / 112.1 | 0.00 / 0.00 / 0.11 / 0.00 |",
    "| 5 | 29,103 | 17,611 | 12,788 | bare loop | 14,426 | 11,186 | 0.78× | 1.39 / 1.79 | 90.4 / 110.1 | 0.01 / 0.00 / 0.00 / 0.02 |",
    "| **median** | 27,940 | 18,955 | 12,461 |  | 13,970 | 10,898 | 0.82× | 1.43 / 1.84 | 90.4 / 110.1 |  |",
  ],
  inRunVsUndici: "0.45×",
  inRunVsNode: "0.66×",
  wholeVsUndici: "0.39×",
  wholeVsNode: "0.57×",
  inRunVsUndiciByRound: "0.61×, 0.48×, 0.42×, 0.44×, 0.44×",
  inRunVsNodeByRound: "1.22×, 0.61×, 0.62×, 0.68×, 0.73×",
  undiciCpuUs: "35",
  nodeCpuUs: "54",
  nodeProcessCpuUs: "80",
  proctorCpuUs: "109",
  rssRows: [
    "| 100,000 | **116.4** | 15,361 | 14,759 | 6.78 | 74 | 0.00 |",
    "| 1,000,000 | **152.5** | 16,603 | 16,407 | 60.95 | 64 | 0.00 |",
  ],
  throughputVerdict: "**missed**",
  undiciMet: false,
  disturbed: null,
  pairs: 5,
  pairRatios: "1.03×, 0.82×, 0.72×, 0.82×, 0.78×",
  wholeVsBare: "0.82×",
  wholeProcessVerdict: "**met**",
  rssTargets: [
    { seeds: "100,000", peakRssMb: "116.4", verdict: "**met**" },
    { seeds: "1,000,000", peakRssMb: "152.5", verdict: "**met**" },
  ],
  discarded: null,
  maxOthers: "0.11",
}

describe("the runner-overhead section", () => {
  it("reads as it did when its prose was written in report.ts, for the same figures", () => {
    expect(sectionText(figures)).toBe(readFileSync(new URL("fixtures/section.md", import.meta.url), "utf8"))
  })

  it("says a disturbed run and its discarded attempts in the templates' words", () => {
    const text = sectionText({
      ...figures,
      undiciMet: true,
      disturbed: { count: 2, kept: 20 },
      discarded: { count: 1, list: "round 2 proctor 9,120/s (others 0.31)" },
      maxOthers: null,
    })
    expect(text).toContain("(stricter): 0.45× — also met. Not reliable: 2 of the 20 kept throughput measurements")
    expect(text).toMatch(/\n\nDiscarded attempts \(disturbed by other processes; 1\): round 2 proctor .*\.\n$/)
  })
})
