import { type Decision, lastMessage } from "./decision.js"
import { type ChatMessage, type ChatRequest, messageText } from "./openai.js"

type Op = "+" | "-" | "*" | "/"

/**
 * Cue phrases per operation, most specific first: a sentence that says both "buys" and "packs of" is
 * a multiplication, and "shared equally … each" is a division, so ÷ beats ×, which beats − and +.
 */
const CUES: ReadonlyArray<readonly [Op, RegExp]> = [
  ["/", /\b(split|splits|shared? equally|shares equally|divided?|divides|equally|among|evenly)\b/],
  ["*", /\b(each|times|per|every|groups? of|rows? of|packs? of|boxes of|bags of|twice|double|triple)\b/],
  [
    "-",
    /\b(left|remain|remaining|remains|gives? away|gave away|gives|gave|eats?|ate|fewer|less|loses?|lost|spends?|spent|sells?|sold|uses?|used|minus|takes? away|took away|broke|breaks)\b/,
  ],
  [
    "+",
    /\b(more|buys?|bought|gets?|got|receives?|received|finds?|found|adds?|added|total|altogether|in all|combined|plus|another|earns?|earned|collects?|collected|gains?)\b/,
  ],
]

const WORD_NUMBERS: Readonly<Record<string, number>> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  dozen: 12,
}

const NUMBER = /\d+(?:,\d{3})*(?:\.\d+)?|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen)\b/g

const numbersIn = (text: string): number[] =>
  Array.from(text.toLowerCase().matchAll(NUMBER), ([token]) => WORD_NUMBERS[token] ?? Number(token.replaceAll(",", "")))

const cueOf = (sentence: string): Op | undefined =>
  CUES.find(([, pattern]) => pattern.test(sentence.toLowerCase()))?.[0]

interface Sentence {
  readonly numbers: ReadonlyArray<number>
  readonly cue: Op | undefined
}

/**
 * Reads the operands in order and gives each one after the first the cue of its own clause (sentences,
 * split again at "then"); a number whose clause has no cue borrows the nearest unused cue before it, else
 * the first cue after it (often the question: "How many are left?"), else "+". Comparisons ("5 fewer
 * than") and steps whose cues sit elsewhere fool it, which is what keeps its scores imperfect.
 */
export const guessExpression = (problem: string): string | undefined => {
  const sentences: Sentence[] = problem
    .split(/(?<=[.!?;])\s+|,\s*(?:and\s+)?then\s+|\s+and then\s+/)
    .map((text) => ({ numbers: numbersIn(text), cue: cueOf(text) }))
  const used = new Set<number>()
  const operands: number[] = []
  const ops: Op[] = []
  sentences.forEach((sentence, at) => {
    for (const value of sentence.numbers) {
      if (operands.length > 0) {
        const own = sentence.cue === undefined ? undefined : at
        const earlier = sentences.findLastIndex((s, i) => i < at && s.cue !== undefined && !used.has(i))
        const later = sentences.findIndex((s, i) => i > at && s.cue !== undefined)
        const source = own ?? (earlier === -1 ? (later === -1 ? undefined : later) : earlier)
        if (source !== undefined) used.add(source)
        ops.push(source === undefined ? "+" : sentences[source]!.cue!)
      }
      operands.push(value)
    }
  })
  if (operands.length === 0) return undefined
  return ops.reduce((expression, op, index) => {
    const wrapped = (op === "*" || op === "/") && /[+-]/.test(expression) ? `(${expression})` : expression
    return `${wrapped} ${op} ${operands[index + 1]}`
  }, String(operands[0]))
}

/** The tool call a tool message answers, found by its id among the assistant's earlier calls. */
const answeredCall = (messages: ReadonlyArray<ChatMessage>, result: ChatMessage): string | undefined =>
  result.name ??
  messages.flatMap((message) => message.tool_calls ?? []).find((call) => call.id === result.tool_call_id)?.function.name

const RESULT_NUMBER = /-?\d+(?:,\d{3})*(?:\.\d+)?(?:e[+-]?\d+)?/i

/** A calculator result may be a bare number, JSON such as `{"result": 7}`, or a sentence around a number. */
const resultValue = (text: string): number | undefined => {
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed === "number") return parsed
    if (typeof parsed === "object" && parsed !== null) {
      const record = parsed as Record<string, unknown>
      const value = [record.result, record.value, record.answer].find((candidate) => typeof candidate === "number")
      if (typeof value === "number") return value
    }
  } catch {
    // Not JSON: read the first number in the text below.
  }
  const match = RESULT_NUMBER.exec(text)
  return match === null ? undefined : Number(match[0].replaceAll(",", ""))
}

/**
 * The math task app's loop: ask `calculator` for a guessed expression, then submit whatever it returned.
 * Undefined when there is nothing numeric to work with, so the caller falls back to a text reply.
 */
export const mathPolicy = (request: ChatRequest): Decision | undefined => {
  const last = request.messages.at(-1)!
  if (last.role === "tool" && answeredCall(request.messages, last) === "calculator") {
    const answer = resultValue(messageText(last))
    return answer === undefined ? undefined : { toolCalls: [{ name: "submit_answer", arguments: { answer } }] }
  }
  const user = lastMessage(request.messages, "user")
  const expression = user === undefined ? undefined : guessExpression(messageText(user))
  return expression === undefined ? undefined : { toolCalls: [{ name: "calculator", arguments: { expression } }] }
}
