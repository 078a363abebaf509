import { describe, expect, it } from "@effect/vitest"
import {
  FlagValueError,
  integerFlag,
  numberFlag,
  oneOfFlag,
  portFlag,
  repeatableFlag,
  scoreFlag,
  secondsFlag,
} from "../src/config/flagParsers.js"

const refusal = (parse: (raw: string) => unknown, raw: string) => {
  try {
    parse(raw)
  } catch (error) {
    expect(error).toBeInstanceOf(FlagValueError)
    return (error as Error).message
  }
  throw new Error(`${JSON.stringify(raw)} was accepted`)
}

describe("flag parsers (every command's, and serveMain's)", () => {
  it("read the values they accept", () => {
    expect(integerFlag({ min: 1 })(" 8 ")).toBe(8)
    expect(integerFlag()("-3")).toBe(-3)
    expect(portFlag("0")).toBe(0)
    expect(numberFlag({ unit: "seconds", min: 0, max: 86_400 })("86400")).toBe(86_400)
    expect(secondsFlag("0.5")).toBe(0.5)
    expect(scoreFlag("0.95")).toBe(0.95)
    expect(oneOfFlag(["compact", "full"])("full")).toBe("full")
    expect(repeatableFlag("b", repeatableFlag("a"))).toEqual(["a", "b"])
  })

  it("refuse the rest in proctor's words, saying what was expected and what was given", () => {
    expect(refusal(integerFlag({ min: 1 }), "abc")).toBe('expected a positive integer, got "abc"')
    expect(refusal(integerFlag({ min: 1 }), "2.5")).toBe('expected a positive integer, got "2.5"')
    expect(refusal(integerFlag({ min: 0 }), "")).toBe('expected an integer ≥ 0, got ""')
    expect(refusal(integerFlag({ min: 1 }), "99999999999999999999")).toBe(
      'expected a positive integer, got "99999999999999999999"',
    )
    expect(refusal(integerFlag(), "x")).toBe('expected an integer, got "x"')
    expect(refusal(portFlag, "70000")).toBe('expected an integer from 0 to 65535, got "70000"')
    expect(refusal(secondsFlag, "soon")).toBe('expected a positive number of seconds, got "soon"')
    expect(refusal(secondsFlag, "1e400")).toBe('expected a positive number of seconds, got "1e400"')
    expect(refusal(numberFlag({ unit: "USD", positive: true }), "free")).toBe(
      'expected a positive number of USD, got "free"',
    )
    expect(refusal(numberFlag({ unit: "seconds", min: 0, max: 86_400 }), "1e300")).toBe(
      'expected a number of seconds from 0 to 86400, got "1e300"',
    )
    expect(refusal(numberFlag({ unit: "megabytes", min: 0 }), "-1")).toBe(
      'expected a number of megabytes ≥ 0, got "-1"',
    )
    expect(refusal(numberFlag({}), "high")).toBe('expected a number, got "high"')
    expect(refusal(scoreFlag, "95")).toBe('expected a score from 0 to 1, got "95" (scores run 0–1; did you mean 0.95?)')
    expect(refusal(scoreFlag, "high")).toBe('expected a score from 0 to 1, got "high"')
    expect(refusal(oneOfFlag(["compact", "full"]), "wide")).toBe('expected one of compact, full, got "wide"')
  })
})
