import { describe, expect, it } from "@effect/vitest"
import { answerOfFinal } from "../src/grader/GradedSolver.js"

describe("a finished rollout's answer, as graders read it", () => {
  it("is the answer it stated (text or a number), else the agent's last model message, else its final as JSON", () => {
    expect(answerOfFinal({ details: { answer: "12" }, final: { answer: "13" } }, [])).toBe("12")
    expect(answerOfFinal({ final: { answer: 12 } }, [])).toBe("12")
    expect(answerOfFinal({ info: { answer: 0.5 } }, [])).toBe("0.5")
    const trajectory = [
      { kind: "model", text: "thinking" },
      { kind: "command", text: "ls" },
      { kind: "model", text: "done: 42" },
    ]
    expect(answerOfFinal({ final: { answer: null } }, trajectory)).toBe("done: 42")
    expect(answerOfFinal({ final: { submitted_answer: 12, correct: true } }, [])).toBe(
      '{"submitted_answer":12,"correct":true}',
    )
    expect(answerOfFinal({}, [])).toBe("")
  })
})
