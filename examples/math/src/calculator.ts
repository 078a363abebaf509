export class CalculatorError extends Error {
  override readonly name = "CalculatorError"
}

const MAX_LENGTH = 500
const MAX_DEPTH = 64

/** Models write × and ÷ as often as * and /. */
const normalise = (expression: string) => expression.replaceAll("×", "*").replaceAll("÷", "/")

/**
 * Evaluates `+ - * /`, unary minus and parentheses over decimal numbers with a recursive-descent parser,
 * because a model's tool arguments must never reach `eval`. Throws `CalculatorError` on anything else,
 * on division by zero, and on input too long or too deeply nested to be arithmetic.
 */
export const evaluateExpression = (input: string): number => {
  const text = normalise(input)
  if (text.length > MAX_LENGTH) throw new CalculatorError(`expression longer than ${MAX_LENGTH} characters`)
  let at = 0
  let depth = 0

  const skipSpaces = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++
  }
  const peek = () => {
    skipSpaces()
    return text[at]
  }
  const fail = (what: string): never => {
    throw new CalculatorError(at >= text.length ? `${what} at the end` : `${what} at position ${at + 1}: "${text[at]}"`)
  }

  const number = (): number => {
    const match = /^(?:\d+(?:\.\d*)?|\.\d+)/.exec(text.slice(at))
    if (match === null) return fail("expected a number")
    at += match[0].length
    return Number(match[0])
  }

  const factor = (): number => {
    const next = peek()
    if (next === "+" || next === "-") {
      at++
      const value = factor()
      return next === "-" ? -value : value
    }
    if (next === "(") {
      if (++depth > MAX_DEPTH) throw new CalculatorError(`more than ${MAX_DEPTH} nested parentheses`)
      at++
      const value = sum()
      if (peek() !== ")") fail("expected )")
      at++
      depth--
      return value
    }
    return number()
  }

  const product = (): number => {
    let value = factor()
    for (let op = peek(); op === "*" || op === "/"; op = peek()) {
      at++
      const right = factor()
      if (op === "/" && right === 0) throw new CalculatorError("division by zero")
      value = op === "*" ? value * right : value / right
    }
    return value
  }

  const sum = (): number => {
    let value = product()
    for (let op = peek(); op === "+" || op === "-"; op = peek()) {
      at++
      value = op === "+" ? value + product() : value - product()
    }
    return value
  }

  if (peek() === undefined) throw new CalculatorError("empty expression")
  const value = sum()
  if (peek() !== undefined) fail("unexpected character")
  if (!Number.isFinite(value)) throw new CalculatorError("result is not a finite number")
  return value
}

/** Twelve significant digits hide binary noise (0.1 + 0.2) without touching integer answers. */
export const formatResult = (value: number): string => String(Number(value.toPrecision(12)))
