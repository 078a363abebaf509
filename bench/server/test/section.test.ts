import { readFileSync } from "node:fs"
import { tableRowsUnder } from "@proctor/bench-shared"
import { describe, expect, it } from "vitest"
import { type ServerFigures, sectionText } from "../src/section.js"

const fixture = readFileSync(new URL("fixtures/section.md", import.meta.url), "utf8")

const rowsUnder = (header: string) => tableRowsUnder(fixture, header)

/** The figures of the section bench/RESULTS.md held when the prose moved into templates (fixtures/section.md). */
const figures: ServerFigures = {
  invokedWith: "--quiet-wait 20",
  throughput: {
    section: "## server",
    measured_at: "2026-11-24 18:08",
    proctor: "commit 505af72",
    machine: "2 cores (Intel(R) Xeon(R) Processor), 24 GiB, Linux 6.18.44-fc-v595, Node v20.20.2",
    load_before: "1.25 / 3.53 / 3.90",
    load_after: "1.78 / 2.90 / 3.62",
    small_seeds: 10,
    duration_s: 10,
    connections: 64,
    pipelining: 1,
    status_bytes: "540",
    warmup_s: 3,
    rounds: 3,
    round_rows: rowsUnder("| round |"),
    round_ratios: "0.90×, 0.86×, 0.90×",
    client_cpu_us_server: "18",
    client_cpu_us_bare: "18",
    running_rps: "33,860",
    running_p50_ms: "1.54",
    running_p99_ms: "5.22",
    running_cpu_us: "29",
    running_others: "0.00",
    target_rps: "5,000",
    server_rps: "41,989",
    rps_verdict: "**met**",
    target_ratio: 0.5,
    server_vs_bare: "0.87×",
    ratio_verdict: "**met**",
  },
  bigJob: {
    streams: 3,
    figures: {
      seeds: "100,000",
      big_concurrency: 64,
      submit_s: "0.15",
      server_s: "13.4",
      rollouts_per_s: "7,467",
      client_s: "13.6",
      mean_score: 0.5,
      server_cpu_us: "150",
      task_app_cpu_us: "42",
      others: "0.00",
      first_polls_ms: "59.99",
      last_polls_ms: "20.23",
      samples_shown: 12,
      samples: 15,
      sample_rows: rowsUnder("| t (s) |"),
      after_gc_settle_ms: 100,
      checkpoint_rows: rowsUnder("| rows stored |"),
      rss_start: "154.4",
      run_peak: "215.4",
      run_growth: "+61.0",
      rss_end: "213.3",
      warm_rows: "10,000",
      run_slope: "+8.3",
      heap_before: "40.4",
      rss_before: "154.4",
      heap_after: "44.0",
      rss_after: "193.1",
      stream_rows: rowsUnder("| stream |"),
      stream_peak: "194.6",
      rss_final: "182.9",
      hwm_end: "236.8",
      status_duration_s: 5,
      status_bytes: "589,419",
      status_rps: "95",
      status_p50_ms: "9.56",
      status_p99_ms: "24.48",
      status_cpu_us: "10,759",
      flat_percent: 25,
      row_mib: "33.3",
      allowance_mib: "8.3",
      page_cache_mib: "15.6",
      heap_fitted: "-2.5",
      rss_second_half: "-4.3",
      run_verdict: "**met**",
      rss_fitted: "+4.9",
      series_growth: "+8.3",
      above_job: "+1.6",
      drift: "-11.7",
      stream_growths: "+1.6 MiB, +1.6 MiB, +1.6 MiB",
      stream_verdict: "**met**",
    },
  },
  againstCli: {
    last_seed: 99999,
    big_concurrency: 64,
    in_run: "14,603",
    whole: "13,411",
    cpu_us: "77",
    others: "0.01",
    target: 0.5,
    server_rate: "7,467",
    versus: "0.51×",
    verdict: "**met**",
  },
  maxOthers: null,
}

describe("the server section", () => {
  it("reads as it did when its prose was written in report.ts, for the same figures", () => {
    expect(sectionText(figures)).toBe(fixture)
  })

  it("streams once in the templates' words, and refuses a figure the templates lack", () => {
    const once = sectionText({ ...figures, bigJob: { ...figures.bigJob!, streams: 1 }, maxOthers: "0.30" })
    expect(once).toContain("`GET /api/eval/jobs/{id}/results?format=jsonl` once, read chunk by chunk")
    expect(once).toMatch(/\n\nOther processes used up to 0\.30 cores during some measurements: .*\n$/)
    expect(() => sectionText({ ...figures, throughput: { ...figures.throughput, p50_ms: 1 } })).toThrow(
      "template: no place for {{p50_ms}}",
    )
  })
})
