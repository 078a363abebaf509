import type { Intent, IntentDataset } from "./dataset.js"

export const TOOL_NAME = "classify_intent"

const intentLine = ({ name, description, keywords }: Intent): string =>
  `- ${name}: ${description}${keywords === undefined || keywords.length === 0 ? "" : ` (keywords: ${keywords.join(", ")})`}`

/** The system prompt lists every intent once; the utterance travels alone in the user message. */
export const buildMessages = (dataset: IntentDataset, utterance: string) => [
  {
    role: "system" as const,
    content: [
      "You classify what a customer wants from a virtual assistant that handles banking, shopping, travel and everyday tasks.",
      `Read the utterance and call ${TOOL_NAME} with exactly one of these intents:`,
      ...dataset.intents.map(intentLine),
    ].join("\n"),
  },
  { role: "user" as const, content: `Utterance: ${utterance}` },
]

/** The one tool; the enum lets constrained decoders (and the grader) hold the model to known labels. */
export const classifyTool = (dataset: IntentDataset) => ({
  type: "function" as const,
  function: {
    name: TOOL_NAME,
    description: "Report the single intent that best matches the utterance.",
    parameters: {
      type: "object",
      properties: { intent: { type: "string", enum: dataset.intents.map((intent) => intent.name) } },
      required: ["intent"],
      additionalProperties: false,
    },
  },
})

/** Sampling settings a policy config may carry; anything else in it is the task app's business, not the model's. */
const SAMPLING_KEYS = ["temperature", "top_p", "max_tokens", "max_completion_tokens", "seed"] as const

/** The chat-completions body for one utterance, forcing the classification tool. */
export const chatRequestBody = (
  dataset: IntentDataset,
  utterance: string,
  policyConfig: Readonly<Record<string, unknown>>,
): Record<string, unknown> => {
  const sampling = Object.fromEntries(
    SAMPLING_KEYS.flatMap((key) => (typeof policyConfig[key] === "number" ? [[key, policyConfig[key]]] : [])),
  )
  return {
    ...(typeof policyConfig.model === "string" ? { model: policyConfig.model } : {}),
    messages: buildMessages(dataset, utterance),
    tools: [classifyTool(dataset)],
    tool_choice: { type: "function", function: { name: TOOL_NAME } },
    ...sampling,
  }
}
