import { describe, expect, it } from "@effect/vitest"
import { errorCell, formatNumber } from "../src/format.js"

describe("formatNumber", () => {
  it("formats like synth-ai: 4 decimals, trailing zeros trimmed, - for missing", () => {
    const cases: ReadonlyArray<readonly [number | null, string]> = [
      [null, "-"],
      [0.5, "0.5"],
      [1, "1"],
      [1 / 3, "0.3333"],
      [2 / 3, "0.6667"],
      [0, "0"],
      [100, "100"],
      [123.45678, "123.4568"],
      [1e-5, "0"],
      [0.00015, "0.0001"],
      [1.00005, "1.0001"],
      [-2.5, "-2.5"],
      [Number.NaN, "nan"],
      [Number.NEGATIVE_INFINITY, "-inf"],
    ]
    for (const [value, text] of cases) expect(formatNumber(value)).toBe(text)
  })

  it("rounds exact ties to even as Python does", () => {
    expect(formatNumber(0.03125)).toBe("0.0312")
    expect(formatNumber(0.09375)).toBe("0.0938")
    expect(formatNumber(13 / 32)).toBe("0.4062")
    expect(formatNumber(-0.03125)).toBe("-0.0312")
    expect(formatNumber(2.5e-5)).toBe("0")
  })

  it("shows a tiny negative as 0, not -0", () => {
    expect(formatNumber(-0.00001)).toBe("0")
  })
})

describe("errorCell", () => {
  it("keeps the table on one line and bounded", () => {
    expect(errorCell("line one\n  line two\t!", null)).toBe("line one line two !")
    expect(errorCell(null, "timeout")).toBe("timeout")
    expect(errorCell("", null)).toBe("-")
    const long = errorCell("x".repeat(200), null)
    expect(long).toBe(`${"x".repeat(79)}…`)
  })
})
