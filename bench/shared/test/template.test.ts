import { describe, expect, it } from "vitest"
import { fillTemplate } from "../src/template.js"

describe("fillTemplate", () => {
  it("puts each figure in its place, as often as the template names it", () => {
    expect(fillTemplate("{{a}} and {{b}}, again {{a}}", { a: "1.21×", b: 5 })).toBe("1.21× and 5, again 1.21×")
  })

  it("throws on a placeholder without a figure, and on a figure without a place", () => {
    expect(() => fillTemplate("p50 {{p50_ms}} ms", {})).toThrow("template: no figure for {{p50_ms}}")
    expect(() => fillTemplate("p50 {{p50_ms}} ms", { p50_ms: 3, p99_ms: 9 })).toThrow(
      "template: no place for {{p99_ms}}",
    )
  })
})
