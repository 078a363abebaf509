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

/** A score that may fall between whole numbers (OpenAI's `score_model` scores from 0 to 1 by default). */
export const numberScoreFormat = (min: number, max: number) =>
  `{"reasoning": "<one or two sentences>", "score": <a number from ${min} to ${max}>}`

export const labelFormat = (labels: ReadonlyArray<string>) =>
  `{"reasoning": "<one or two sentences>", "label": "<one of: ${labels.join(", ")}>"}`

export const WINNER_FORMAT = `{"reasoning": "<one or two sentences>", "winner": "<one of: A, B, tie>"}`

export interface JudgeSection {
  readonly title: string
  readonly text: string
}

/**
 * A judge's prompt of the user's own messages (an imported model grader's): proctor's opening and answer format in
 * the system message, around the user's system messages, then the user's other messages as they are.
 */
export const ownJudgeMessages = (
  messages: ReadonlyArray<JudgeMessage>,
  format: string,
): ReadonlyArray<JudgeMessage> => {
  const system = messages.filter((message) => message.role === "system").map((message) => message.content)
  return [
    {
      role: "system",
      content: [
        JUDGE_OPENING,
        ...system,
        `Reply with one JSON object and nothing else, in this format:\n${format}`,
      ].join("\n"),
    },
    ...messages.filter((message) => message.role !== "system"),
  ]
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
