import type { ImportedEval } from "../ImportedEval.js"
import { ImportProblem } from "../ImportProblem.js"

export const readOpenAiEval = (_file: string, _data: string): ImportedEval => {
  throw new ImportProblem("", "not yet")
}
