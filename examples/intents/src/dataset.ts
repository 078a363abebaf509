import { readFileSync } from "node:fs"

export interface Intent {
  readonly name: string
  readonly description: string
  readonly keywords?: ReadonlyArray<string>
}

export interface LabelledUtterance {
  readonly text: string
  readonly intent: string
}

export interface IntentDataset {
  readonly intents: ReadonlyArray<Intent>
  readonly utterances: ReadonlyArray<LabelledUtterance>
}

/** The same path from `src/` and `dist/`, so tests and the built app read the one committed file. */
export const DEFAULT_DATASET_URL = new URL("../data/intents.json", import.meta.url)

const isString = (value: unknown): value is string => typeof value === "string" && value !== ""

/** Reads and checks a dataset; a label naming no intent would make the task ungradable, so it fails here. */
export const loadDataset = (url: URL = DEFAULT_DATASET_URL): IntentDataset => {
  const data = JSON.parse(readFileSync(url, "utf8")) as Partial<IntentDataset>
  const intents = Array.isArray(data.intents) ? data.intents : []
  const utterances = Array.isArray(data.utterances) ? data.utterances : []
  if (intents.length === 0 || utterances.length === 0) throw new Error(`${url.pathname}: no intents or utterances`)
  const names = new Set<string>()
  for (const intent of intents) {
    if (!isString(intent.name) || !isString(intent.description)) throw new Error(`${url.pathname}: bad intent`)
    if (names.has(intent.name)) throw new Error(`${url.pathname}: intent ${intent.name} listed twice`)
    names.add(intent.name)
  }
  const unknown = utterances.find((utterance) => !isString(utterance.text) || !names.has(utterance.intent))
  if (unknown !== undefined)
    throw new Error(`${url.pathname}: utterance ${JSON.stringify(unknown)} has no known intent`)
  return { intents, utterances }
}

export interface Example extends LabelledUtterance {
  readonly index: number
}

/** Seeds wrap around the dataset (negative ones too); the committed order is already shuffled. */
export const exampleForSeed = (dataset: IntentDataset, seed: number): Example => {
  const size = dataset.utterances.length
  const index = ((Math.trunc(seed) % size) + size) % size
  return { index, ...dataset.utterances[index]! }
}
