import { type Decision, lastMessage } from "./decision.js"
import { fnv1a } from "./hash.js"
import { type ChatRequest, messageText } from "./openai.js"
import { SUM_QUESTION } from "./sumPolicy.js"

/** proctor's judge prompts open their system message with this (see core's `judgePrompt.ts`). */
const JUDGE_OPENING = "You are a judge"
const SCORE_FORMAT = /"score": <(?:an integer|a number) from (-?\d+(?:\.\d+)?) to (-?\d+(?:\.\d+)?)>/
const LABEL_FORMAT = /"label": "<one of: ([^>]*)>"/
const WINNER_FORMAT = /"winner": "<one of: A, B, tie>"/

/** One item in this many gets the wrong verdict, chosen by the item's text: the judge's known error rate. */
export const JUDGE_WRONG_EVERY = 5
/** With `temperature > 0` and a `seed`, one sample in this many is also flipped: the judge's own noise. */
export const JUDGE_NOISE_EVERY = 10

/** The `[Title]` sections of a judge prompt's user message. */
const sectionsOf = (text: string): ReadonlyMap<string, string> => {
  const sections = new Map<string, string>()
  const pattern = /^\[([^\]\n]+)\]\n([\s\S]*?)(?=\n\n\[[^\]\n]+\]\n|$(?![\s\S]))/gm
  for (const match of text.matchAll(pattern)) sections.set(match[1]!, match[2]!.trim())
  return sections
}

const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s.-]/gu, " ")
    .replace(/\s+/g, " ")
    .replace(/\.$/, "")
    .trim()

/**
 * Whether an answer is right, as the baseline judges it: a "What is A + B?" task by the sum; else by the reference
 * answer (equal, or the reference appears in the answer as whole words); with neither, any non-empty answer.
 */
const isRight = (task: string, reference: string | undefined, answer: string): boolean => {
  const sum = SUM_QUESTION.exec(task)
  if (sum !== null) return normalize(answer) === String(Number(sum[1]) + Number(sum[2]))
  if (reference !== undefined && reference !== "") {
    const [want, got] = [normalize(reference), normalize(answer)]
    return want === got || ` ${got} `.includes(` ${want} `)
  }
  return answer.trim() !== ""
}

const reply = (reasoning: string, field: string, value: string | number): Decision => ({
  content: JSON.stringify({ reasoning, [field]: value }),
})

/**
 * The baseline as a judge: a system message that opens like proctor's judge prompts and declares a score range, a
 * set of labels or a pairwise winner is answered in that format. The verdict is right except on one item in
 * `JUDGE_WRONG_EVERY` (chosen by the prompt's text, so always the same items), where it is flipped: the lowest score
 * for a right answer, a non-passing label, answer A in a pairwise comparison whatever the order (a position bias).
 * With `temperature > 0` and a `seed`, one sample in `JUDGE_NOISE_EVERY` is flipped as well. Undefined for any other
 * request.
 */
export const judgePolicy = (request: ChatRequest): Decision | undefined => {
  const system = lastMessage(request.messages, "system")
  const instructions = system === undefined ? "" : messageText(system)
  if (!instructions.startsWith(JUDGE_OPENING)) return undefined
  const user = lastMessage(request.messages, "user")
  const prompt = user === undefined ? "" : messageText(user)
  const sections = sectionsOf(prompt)
  const task = sections.get("Task") ?? ""
  const reference = sections.get("Reference answer")
  const noisy = (request.temperature ?? 0) > 0 && request.seed !== undefined
  const flipped =
    (fnv1a(prompt) % JUDGE_WRONG_EVERY === 0) !==
    (noisy && fnv1a(`${prompt}#${request.seed}`) % JUDGE_NOISE_EVERY === 0)

  const score = SCORE_FORMAT.exec(instructions)
  if (score !== null) {
    const right = isRight(task, reference, sections.get("Answer") ?? "") !== flipped
    const [min, max] = [Number(score[1]), Number(score[2])]
    return right
      ? reply("The answer meets the rubric.", "score", max)
      : reply("The answer does not meet the rubric.", "score", min)
  }
  const labels = LABEL_FORMAT.exec(instructions)
  if (labels !== null) {
    const declared = labels[1]!.split(",").map((label) => label.trim())
    const listed = sections.get("Labels") ?? ""
    const passing = declared.filter((label) => listed.includes(`- ${label} (a passing grade)`))
    const failing = declared.filter((label) => !passing.includes(label))
    const right = isRight(task, reference, sections.get("Answer") ?? "") !== flipped
    const label = (right ? passing[0] : failing[failing.length - 1]) ?? declared[0]!
    return reply(right ? "The answer is right." : "The answer is wrong.", "label", label)
  }
  if (WINNER_FORMAT.test(instructions)) {
    if (flipped) return reply("Answer A reads better.", "winner", "A")
    const a = isRight(task, reference, sections.get("Answer A") ?? "")
    const b = isRight(task, reference, sections.get("Answer B") ?? "")
    const winner = a === b ? "tie" : a ? "A" : "B"
    return reply(winner === "tie" ? "The answers are as good." : `Answer ${winner} is right.`, "winner", winner)
  }
  return undefined
}
