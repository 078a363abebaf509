import { distance } from "fastest-levenshtein"
import { l as rougeLOf } from "js-rouge"

/**
 * 1 − Levenshtein distance / the longer string's length (autoevals' `Levenshtein` score): 1 for equal strings,
 * 0 for nothing in common. fastest-levenshtein computes the distance.
 */
export const fuzzyRatio = (answer: string, reference: string): number => {
  const longer = Math.max(answer.length, reference.length)
  return longer === 0 ? 1 : 1 - distance(answer, reference) / longer
}

/** ROUGE-L F-measure (summary-level LCS), as js-rouge (promptfoo's) computes it; 0 when either text is empty. */
export const rougeL = (answer: string, reference: string): number =>
  answer.trim() === "" || reference.trim() === "" ? 0 : rougeLOf(answer, reference)

const tokens = (text: string): ReadonlyArray<string> =>
  text
    .trim()
    .split(/\s+/)
    .filter((t) => t !== "")

const ngramCounts = (words: ReadonlyArray<string>, n: number): Map<string, number> => {
  const counts = new Map<string, number>()
  for (let i = 0; i + n <= words.length; i++) {
    const gram = words.slice(i, i + n).join("\u0000")
    counts.set(gram, (counts.get(gram) ?? 0) + 1)
  }
  return counts
}

/**
 * Sentence BLEU-4 (Papineni et al. 2002) against one or more references, whitespace tokens, uniform weights:
 * clipped n-gram precisions, the brevity penalty against the reference closest in length, and Lin & Och's add-one
 * smoothing of n > 1 (NLTK's `method2`) so one missing 4-gram does not make a short answer 0. No JS library that is
 * kept up offers BLEU (js-rouge has ROUGE only), so it is written here and tested against NLTK's published values.
 */
export const bleu = (answer: string, references: ReadonlyArray<string>): number => {
  const hypothesis = tokens(answer)
  const refs = references.map(tokens)
  if (hypothesis.length === 0 || refs.every((ref) => ref.length === 0)) return 0
  let logPrecision = 0
  for (let n = 1; n <= 4; n++) {
    const counts = ngramCounts(hypothesis, n)
    const maxRef = new Map<string, number>()
    for (const ref of refs) {
      for (const [gram, count] of ngramCounts(ref, n)) maxRef.set(gram, Math.max(maxRef.get(gram) ?? 0, count))
    }
    let clipped = 0
    let total = 0
    for (const [gram, count] of counts) {
      clipped += Math.min(count, maxRef.get(gram) ?? 0)
      total += count
    }
    const smoothing = n === 1 ? 0 : 1
    if (clipped + smoothing === 0) return 0
    logPrecision += Math.log((clipped + smoothing) / (total + smoothing)) / 4
  }
  const closest = refs
    .map((ref) => ref.length)
    .reduce((best, len) =>
      Math.abs(len - hypothesis.length) < Math.abs(best - hypothesis.length) ||
      (Math.abs(len - hypothesis.length) === Math.abs(best - hypothesis.length) && len < best)
        ? len
        : best,
    )
  const brevity = hypothesis.length >= closest ? 1 : Math.exp(1 - closest / hypothesis.length)
  return brevity * Math.exp(logPrecision)
}
