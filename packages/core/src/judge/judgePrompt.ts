import type { JudgeMessage } from "./JudgeClient.js"

/**
 * The judge's prompt: a system message that says what to grade and declares the answer's format as one JSON
 * object, and a user message of bracketed sections (`[Task]`, `[Answer]`, …). The format lines are fixed text
 * (`"score": <an integer from 1 to 5>`, `"label": "<one of: a, b>"`, `"winner": "<one of: A, B, tie>"`), so a
 * judge's answer can be checked against them and the baseline model's judge policy can read them.
 */
export const JUDGE_OPENING = "You are a judge: you grade an answer to a task, carefully and impartially."

export const scoreFormat = (min: number, max: number) =>
  `{"reasoning": "<one or two sentences>", "score": <an integer from ${min} to ${max}>}`

export const labelFormat = (labels: ReadonlyArray<string>) =>
  `{"reasoning": "<one or two sentences>", "label": "<one of: ${labels.join(", ")}>"}`

export const WINNER_FORMAT = `{"reasoning": "<one or two sentences>", "winner": "<one of: A, B, tie>"}`

export interface JudgeSection {
  readonly title: string
  readonly text: string
}

/** The two messages of a judge's prompt; sections with no text are left out. */
export const judgeMessages = (
  instructions: string,
  format: string,
  sections: ReadonlyArray<JudgeSection>,
): ReadonlyArray<JudgeMessage> => [
  {
    role: "system",
    content: `${JUDGE_OPENING}\n${instructions}\nReply with one JSON object and nothing else, in this format:\n${format}`,
  },
  {
    role: "user",
    content: sections
      .filter((section) => section.text.trim() !== "")
      .map((section) => `[${section.title}]\n${section.text.trim()}`)
      .join("\n\n"),
  },
]
