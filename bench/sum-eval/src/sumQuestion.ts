/** One question of the sum eval; the task app and promptfoo's config both ask it, word for word. */
export interface SumQuestion {
  readonly prompt: string
  readonly answer: number
}

/** The question of a seed: the same seed always asks the same question (operands 0–999). */
export const sumQuestion = (seed: number): SumQuestion => {
  const a = (seed * 7_919) % 1_000
  const b = (seed * 104_729 + 17) % 1_000
  return { prompt: `What is ${a} + ${b}? Answer with the number only.`, answer: a + b }
}
