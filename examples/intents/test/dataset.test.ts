import { describe, expect, it } from "vitest"
import { exampleForSeed, loadDataset } from "../src/index.js"

const dataset = loadDataset()

describe("intents dataset", () => {
  it("has at least 20 intents and 400 utterances, each labelled with a known intent", () => {
    const names = new Set(dataset.intents.map((intent) => intent.name))
    expect(names.size).toBe(dataset.intents.length)
    expect(names.size).toBeGreaterThanOrEqual(20)
    expect(dataset.utterances.length).toBeGreaterThanOrEqual(400)
    for (const utterance of dataset.utterances) expect(names).toContain(utterance.intent)
  })

  it("has distinct utterances and every intent used", () => {
    const texts = dataset.utterances.map((utterance) => utterance.text.toLowerCase())
    expect(new Set(texts).size).toBe(texts.length)
    const used = new Set(dataset.utterances.map((utterance) => utterance.intent))
    expect(used.size).toBe(dataset.intents.length)
    for (const intent of dataset.intents) expect(intent.description.length).toBeGreaterThan(10)
  })

  it("maps every seed, negative ones too, onto an utterance", () => {
    const size = dataset.utterances.length
    expect(exampleForSeed(dataset, 3)).toEqual({ index: 3, ...dataset.utterances[3] })
    expect(exampleForSeed(dataset, size + 3).index).toBe(3)
    expect(exampleForSeed(dataset, -1).index).toBe(size - 1)
  })

  it("spreads consecutive seeds over many intents", () => {
    const first = new Set(dataset.utterances.slice(0, 40).map((utterance) => utterance.intent))
    expect(first.size).toBeGreaterThanOrEqual(15)
  })
})
