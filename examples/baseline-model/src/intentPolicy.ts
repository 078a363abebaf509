import { type Decision, lastMessage } from "./decision.js"
import { fnv1a } from "./hash.js"
import { type ChatRequest, messageText } from "./openai.js"

const STOP_WORDS = new Set(
  (
    "a an the and or but if of to in on at for from by with about into over after before up down out off " +
    "i me my mine we our you your he she it its they them their this that these those is are was were be " +
    "been am do does did have has had can could would should will shall may might must not no so just " +
    "please want need like get got know let make what when where which who how why there here any some " +
    "all than then too very also again now today one"
  ).split(" "),
)

/** Lower-case words, a plural "s" dropped; stop words and the "s" of "user's" are no evidence. */
const words = (text: string): string[] =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
    .map((word) => (word.length > 3 && /[^s]s$/.test(word) ? word.slice(0, -1) : word))

/**
 * Same word, or one inflection of the other: a shared prefix of at least 5 letters covering 3/4 of the
 * shorter word, so "reserve" meets "reservation" and "charged" meets "charge", but "transfer" and
 * "translate" stay apart.
 */
const similar = (a: string, b: string): boolean => {
  if (a === b) return true
  const shorter = Math.min(a.length, b.length)
  let shared = 0
  while (shared < shorter && a[shared] === b[shared]) shared++
  return shared >= 5 && shared >= 0.75 * shorter
}

interface Candidate {
  readonly name: string
  readonly weights: ReadonlyArray<readonly [word: string, weight: number]>
}

const NAME_WEIGHT = 3
const KEYWORD_WEIGHT = 2
const DESCRIPTION_WEIGHT = 1

const candidate = (name: string, description: string, keywords: string): Candidate => {
  const weights = new Map<string, number>()
  const add = (text: string, weight: number) => {
    for (const word of words(text)) weights.set(word, Math.max(weights.get(word) ?? 0, weight))
  }
  add(description, DESCRIPTION_WEIGHT)
  add(keywords, KEYWORD_WEIGHT)
  add(name.replaceAll(/[_-]/g, " "), NAME_WEIGHT)
  return { name, weights: [...weights] }
}

/** Prompt lines like "- check_balance: Ask for a balance (keywords: balance, funds)". */
const INTENT_LINE = /^\s*(?:[-*•]|\d+[.)])\s*`?([A-Za-z][\w.-]*)`?\s*[:–—-]\s*(.+)$/
const KEYWORDS = /\(?\bkeywords?\s*:\s*([^)]*)\)?/i

/** Intent lines of one message; prompts repeat across requests, so each text is parsed once while it is hot. */
const parsedTexts = new Map<string, ReadonlyArray<Candidate>>()
const PARSED_TEXTS_LIMIT = 64

const intentsInText = (text: string): ReadonlyArray<Candidate> => {
  const cached = parsedTexts.get(text)
  if (cached !== undefined) return cached
  const found: Candidate[] = []
  for (const line of text.split("\n")) {
    const match = INTENT_LINE.exec(line)
    if (match === null) continue
    const [, name, rest] = match as unknown as [string, string, string]
    found.push(candidate(name, rest.replace(KEYWORDS, ""), KEYWORDS.exec(rest)?.[1] ?? ""))
  }
  if (parsedTexts.size >= PARSED_TEXTS_LIMIT) parsedTexts.clear()
  parsedTexts.set(text, found)
  return found
}

const intentsInPrompt = (request: ChatRequest): Map<string, Candidate> => {
  const found = new Map<string, Candidate>()
  for (const message of request.messages) {
    if (message.role !== "system" && message.role !== "user" && message.role !== "developer") continue
    for (const intent of intentsInText(messageText(message))) found.set(intent.name, intent)
  }
  return found
}

const wordScore = (word: string, weights: Candidate["weights"]): number => {
  let best = 0
  for (const [known, weight] of weights) if (weight > best && similar(word, known)) best = weight
  return best
}

/** The tool schema's enum is the authoritative label set when the caller provides one. */
const enumNames = (request: ChatRequest): string[] | undefined => {
  const tool = request.tools?.find((t) => t.function.name === "classify_intent")
  const parameters = tool?.function.parameters as { properties?: { intent?: { enum?: unknown } } } | undefined
  const values = parameters?.properties?.intent?.enum
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === "string") : undefined
}

const utteranceOf = (request: ChatRequest): string => {
  const user = lastMessage(request.messages, "user")
  const text = user === undefined ? "" : messageText(user)
  const labelled = /utterance\s*:\s*(.+)/i.exec(text)?.[1]
  return (labelled ?? text).trim().replace(/^["“']|["”']$/g, "")
}

/**
 * Scores every intent by the summed weights of the utterance's words (or their inflections) found in its
 * name (3), keywords (2) or description (1), and calls `classify_intent` with the best; ties and all-zero
 * scores are broken by a hash of the utterance, so the same request always gets the same answer.
 */
export const intentPolicy = (request: ChatRequest): Decision => {
  const described = intentsInPrompt(request)
  const names = enumNames(request) ?? [...described.keys()]
  const utterance = utteranceOf(request)
  const said = new Set(words(utterance))
  const scored = names.map((name) => {
    const { weights } = described.get(name) ?? candidate(name, "", "")
    let score = 0
    for (const word of said) score += wordScore(word, weights)
    return { name, score, tieBreak: fnv1a(`${utterance}\u0000${name}`) }
  })
  scored.sort((a, b) => b.score - a.score || a.tieBreak - b.tieBreak)
  const best = scored[0]
  return best === undefined
    ? { content: "I cannot tell which intents are allowed." }
    : { toolCalls: [{ name: "classify_intent", arguments: { intent: best.name } }] }
}
