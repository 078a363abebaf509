import { readFileSync } from "node:fs"
import { tableRowsUnder } from "@proctor/bench-shared"
import { describe, expect, it } from "vitest"
import { type InterceptorFigures, sectionText } from "../src/section.js"

const fixture = readFileSync(new URL("fixtures/section.md", import.meta.url), "utf8")

const rowsUnder = (header: string) => tableRowsUnder(fixture, header)

const met = (added: string, paired: string) => ({
  added,
  paired,
  overloaded: false,
  notByPaired: false,
  verdict: "**met**",
})

/** The figures of the section bench/RESULTS.md held when the prose moved into templates (fixtures/section.md). */
const figures: InterceptorFigures = {
  invokedWith: "",
  main: {
    section: "## interceptor",
    measured_at: "2026-11-24 17:42",
    proctor: "commit 29a2f1c",
    machine: "2 cores (Intel(R) Xeon(R) Processor), 24 GiB, Linux 6.18.44-fc-v595, Node v20.20.2",
    load_before: "1.46 / 1.11 / 1.70",
    load_after: "1.78 / 1.31 / 1.64",
    slow_latency_ms: 20,
    cids: 50,
    calls_per_rollout: 20,
    rate: 500,
    warmup_s: 3,
    cpu_duration_s: 9,
    phase_rows: rowsUnder("| phase | requests"),
    stall_ms: 2,
    stall_rows: rowsUnder("| phase | event-loop"),
  },
  targets: {
    limits: { p50TargetMs: 1, p99TargetMs: 5, jsonCpuTargetUs: 200, sseCpuTargetUs: 300 },
    json: {
      p50: met("+0.36", "+0.35"),
      p99: met("+1.97", "+2.88"),
      cpu: {
        ownUs: "382",
        floor: { bareUs: "313", ratio: { ratio: "1.22×", min: "0.85", max: "1.56" } },
        verdict: "**missed**",
      },
    },
    sse: {
      p50: met("+0.52", "+0.53"),
      p99: met("+2.04", "+3.32"),
      cpu: {
        ownUs: "533",
        floor: { bareUs: "378", ratio: { ratio: "1.41×", min: "1.16", max: "1.70" } },
        verdict: "**missed**",
      },
    },
  },
  memory: {
    figures: {
      calls: "100,000",
      rollouts: "1,000",
      calls_per_rollout: "100",
      concurrency: 16,
      seconds: "32.4",
      calls_per_s: "3,087",
      cpu_us: "268",
      others: "0.00",
      sample_every: "10,000",
      sample_rows: rowsUnder("| calls |"),
      first_warm_calls: "10,000",
      heap_slope: "+0.23",
      rss_slope: "+1.72",
      raw_heap_slope: "+2.49",
      raw_rss_slope: "+1.12",
      flat_heap_mb: 2,
      flat_rss_mb: 10,
    },
    failures: 0,
    peakRssMib: "170.8",
    verdict: "**met**",
  },
  maxOthers: null,
  overloaded: null,
}

describe("the interceptor section", () => {
  it("reads as it did when its prose was written in report.ts, for the same figures", () => {
    expect(sectionText(figures)).toBe(fixture)
  })

  it("says what was overloaded, not measured or too short to judge in the templates' words", () => {
    const text = sectionText({
      ...figures,
      targets: {
        ...figures.targets!,
        json: { ...figures.targets!.json, p99: { ...met("+4.10", "+6.00"), notByPaired: true }, cpu: null },
        sse: { ...figures.targets!.sse!, p50: { ...met("+9.00", "+9.10"), overloaded: true } },
      },
      memory: { ...figures.memory!, failures: 2, peakRssMib: null, verdict: null },
      overloaded: '"SSE TTFT, upstream +0 ms"',
    })
    expect(text).toContain(
      "- JSON: added p99 ≤ 5 ms: +4.10 ms (paired +6.00 ms) — **met** (not by the paired differences).",
    )
    expect(text).toContain("- JSON: interceptor CPU per call ≤ 200 µs: not measured (--cpu-duration 0).")
    expect(text).toContain("+9.00 ms (paired +9.10 ms) — **not measured**: the machine was overloaded in this phase")
    expect(text).toContain("others 0.00 cores); **2 failures**. The interceptor's memory")
    expect(text).toContain("over the whole bench: unknown.")
    expect(text).toContain("): not judged (a short run: its slope, scaled to 100,000 calls, is mostly noise).")
    expect(text).toMatch(/\n\n\*\*Overloaded:\*\* in "SSE TTFT, upstream \+0 ms" the machine .*\n$/)
  })
})
