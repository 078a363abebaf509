import { type Random, seededRandom } from "./random.js"

export interface MathProblem {
  readonly seed: number
  readonly template: string
  /** How many arithmetic operations the answer takes. */
  readonly steps: 1 | 2
  readonly question: string
  readonly answer: number
}

interface Template {
  readonly id: string
  readonly steps: 1 | 2
  readonly make: (random: Random) => { readonly question: string; readonly answer: number }
}

const PEOPLE: ReadonlyArray<readonly [name: string, pronoun: string]> = [
  ["Maya", "she"],
  ["Liam", "he"],
  ["Ava", "she"],
  ["Noah", "he"],
  ["Zoe", "she"],
  ["Omar", "he"],
  ["Priya", "she"],
  ["Lucas", "he"],
]

const ITEMS = ["apples", "marbles", "stickers", "pencils", "cookies", "seashells", "stamps", "books"] as const

/** Every template draws its numbers so that each intermediate and final answer is a positive integer. */
const TEMPLATES: ReadonlyArray<Template> = [
  {
    id: "add",
    steps: 1,
    make: (r) => {
      const [name, pronoun] = r.pick(PEOPLE)
      const item = r.pick(ITEMS)
      const [a, b] = [r.int(2, 60), r.int(2, 40)]
      return {
        question: `${name} has ${a} ${item} and buys ${b} more. How many ${item} does ${pronoun} have now?`,
        answer: a + b,
      }
    },
  },
  {
    id: "subtract",
    steps: 1,
    make: (r) => {
      const [name, pronoun] = r.pick(PEOPLE)
      const item = r.pick(ITEMS)
      const a = r.int(10, 90)
      const b = r.int(1, a - 1)
      return {
        question: `${name} had ${a} ${item} and gave ${b} of them to a friend. How many ${item} does ${pronoun} have left?`,
        answer: a - b,
      }
    },
  },
  {
    id: "multiply",
    steps: 1,
    make: (r) => {
      const item = r.pick(ITEMS)
      const [a, b] = [r.int(2, 12), r.int(2, 12)]
      return { question: `Each box holds ${a} ${item}. How many ${item} are in ${b} boxes?`, answer: a * b }
    },
  },
  {
    id: "divide",
    steps: 1,
    make: (r) => {
      const [name] = r.pick(PEOPLE)
      const item = r.pick(ITEMS)
      const [each, friends] = [r.int(2, 12), r.int(2, 9)]
      return {
        question: `${name} shares ${each * friends} ${item} equally among ${friends} friends. How many ${item} does each friend get?`,
        answer: each,
      }
    },
  },
  {
    id: "packs-then-give",
    steps: 2,
    make: (r) => {
      const [name] = r.pick(PEOPLE)
      const item = r.pick(ITEMS)
      const [packs, perPack] = [r.int(2, 9), r.int(2, 12)]
      const given = r.int(1, packs * perPack - 1)
      return {
        question: `${name} buys ${packs} packs of ${item} with ${perPack} ${item} in each pack, then gives away ${given}. How many ${item} are left?`,
        answer: packs * perPack - given,
      }
    },
  },
  {
    id: "add-then-split",
    steps: 2,
    make: (r) => {
      const [name, pronoun] = r.pick(PEOPLE)
      const item = r.pick(ITEMS)
      const [bags, perBag] = [r.int(2, 9), r.int(2, 12)]
      const total = bags * perBag
      const had = r.int(1, total - 1)
      return {
        question: `${name} has ${had} ${item} and buys ${total - had} more, then ${pronoun} splits them equally into ${bags} bags. How many ${item} are in each bag?`,
        answer: perBag,
      }
    },
  },
  {
    id: "change",
    steps: 2,
    make: (r) => {
      const [name, pronoun] = r.pick(PEOPLE)
      const item = r.pick(ITEMS)
      const [count, price] = [r.int(2, 9), r.int(2, 9)]
      const bill = r.pick([20, 50, 100].filter((b) => b > count * price))
      return {
        question: `${name} buys ${count} ${item} at ${price} dollars each and pays with a ${bill} dollar bill. How many dollars of change does ${pronoun} get?`,
        answer: bill - count * price,
      }
    },
  },
  {
    id: "daily-then-more",
    steps: 2,
    make: (r) => {
      const [name, pronoun] = r.pick(PEOPLE)
      const [perDay, days, extra] = [r.int(5, 30), r.int(2, 7), r.int(1, 25)]
      return {
        question: `${name} reads ${perDay} pages every day for ${days} days, and then ${extra} more pages. How many pages has ${pronoun} read in total?`,
        answer: perDay * days + extra,
      }
    },
  },
]

export const TEMPLATE_IDS: ReadonlyArray<string> = TEMPLATES.map((t) => t.id)

/** The problem of a seed: the same seed always gives the same question and answer. */
export const problemForSeed = (seed: number): MathProblem => {
  const random = seededRandom(seed)
  const template = random.pick(TEMPLATES)
  return { seed, template: template.id, steps: template.steps, ...template.make(random) }
}
