import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { ConfigError } from "../../src/config/ConfigError.js"
import { importedGraderSet } from "../../src/import/openImportedRun.js"
import { scriptVerdict } from "../../src/import/promptfoo/promptfooPython.js"
import { assertionOfExpected } from "../../src/import/promptfoo/promptfooTests.js"
import { readPromptfooConfig } from "../../src/import/promptfoo/readPromptfooConfig.js"
import { readImportedEval } from "../../src/import/readImportedEval.js"

const dir = mkdtempSync(join(tmpdir(), "proctor-promptfoo-import-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const write = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const config = (tests: string, extra = "") =>
  write(
    "promptfooconfig.yaml",
    `prompts: ["Say {{word}}"]\nproviders: [openai:chat:gpt-4o-mini]\n${extra}tests:\n${tests}`,
  )

/** The one line `proctor eval` prints for a config, or null when it imports. */
const refusal = (path: string) => {
  const exit = Effect.runSyncExit(readImportedEval({ from_promptfoo: path }))
  if (Exit.isSuccess(exit)) return null
  const error = exit.cause._tag === "Fail" ? exit.cause.error : null
  expect(error).toBeInstanceOf(ConfigError)
  return (error as ConfigError).message.replace(`${path}: `, "")
}

/** Every row's own verdict (`score`) on one answer. */
const graded = (path: string, answer: string) => {
  const imported = readPromptfooConfig(path)
  const grader = importedGraderSet(imported.rows)
  return imported.rows.map((row) => grader.gradeSync!({ answer, item: row.item }).grades)
}

describe("--from-promptfoo", () => {
  it("names the key of anything it would not run as promptfoo does, never dropping it", () => {
    expect(
      refusal(
        config(
          "  - vars: { word: hi }\n    assert:\n      - type: equals\n        value: hi\n      - type: perplexity\n",
        ),
      ),
    ).toMatch(/^tests\[0\]\.assert\[1\]\.type: "perplexity" is not supported: it needs the model's logprobs/)
    expect(
      refusal(config("  - vars: { word: hi }\n    assert: [{ type: javascript, value: 'output.length > 1' }]\n")),
    ).toMatch(/^tests\[0\]\.assert\[0\]\.type: "javascript" is not supported/)
    expect(refusal(config("  - vars: { word: hi }\n    assert: [{ type: not-llm-rubric, value: rude }]\n"))).toBe(
      'tests[0].assert[0].type: "not-llm-rubric": a negated model-graded assertion is not mapped',
    )
    expect(
      refusal(config("  - vars: { word: hi }\n    assert: [{ type: factuality, value: hi, threshold: 0.5 }]\n")),
    ).toBe('tests[0].assert[0].threshold: "factuality" passes or fails on the judge\'s verdict, not a threshold')
    expect(refusal(config("  - vars: { word: hi }\n    assert: [{ type: answer-relevance }]\n"))).toMatch(
      /^tests\[0\]\.assert\[0\]\.type: "answer-relevance" is not supported: it needs an embedding model/,
    )
    expect(
      refusal(config("  - vars: { word: hi }\n    assert: [{ type: contains, value: hi, transform: x }]\n")),
    ).toMatch(/^tests\[0\]\.assert\[0\]\.transform: is not supported/)
    expect(refusal(config("  - vars: { word: [a, b] }\n"))).toMatch(/^tests\[0\]\.vars\.word: a list of values/)
    expect(refusal(config("  - vars: { word: 'file://notes/*.txt' }\n"))).toMatch(/^tests\[0\]\.vars\.word: a glob/)
    expect(refusal(config("  - vars: { word: 'file://make_word.py' }\n"))).toMatch(
      /^tests\[0\]\.vars\.word: a var computed by a script/,
    )
    expect(refusal(config("  - vars: { word: 'file://missing.txt' }\n"))).toMatch(
      /^tests\[0\]\.vars\.word: cannot read .*missing\.txt/,
    )
    expect(
      refusal(config("  - vars: { word: hi }\n    assert: [{ type: python, value: 'file://nowhere.py' }]\n")),
    ).toMatch(/^tests\[0\]\.assert\[0\]\.value: no file .*nowhere\.py/)
    expect(refusal(config("  - vars: { word: hi }\n    assert: [{ type: assert-set, assert: [] }]\n"))).toBe(
      "tests[0].assert[0].assert: expected a list of assertions",
    )
    expect(refusal(config("  - vars: { word: hi }\n", "scenarios: []\n"))).toBe(
      "scenarios: is not supported (proctor would not apply it)",
    )
    expect(
      refusal(
        write(
          "two.yaml",
          "prompts: ['{{word}}']\nproviders: [openai:chat:a, { id: openai:chat:b, config: { temperature: 1 } }]\ntests: [{ vars: { word: x } }]\n",
        ),
      ),
    ).toBe(
      "providers[1].config: differs from providers[0]'s settings: the providers of one run share them (a grid varies the model and its endpoint)",
    )
    expect(refusal(config("  - vars: { other: hi }\n"))).toMatch(/^prompts\[0\]: for tests\[0\]: the template .*word/)
  })

  it("several providers are a grid run: a variant each, with its model and its own endpoint when it has one", () => {
    const path = write(
      "grid.yaml",
      [
        "prompts: ['{{word}}']",
        "providers:",
        "  - openai:chat:small",
        "  - { id: openai:chat:large, label: big-one, config: { apiBaseUrl: 'http://127.0.0.1:9/v1' } }",
        "  - { id: openai:chat:large, label: 'has spaces' }",
        "tests: [{ vars: { word: x } }]",
      ].join("\n"),
    )
    expect(readPromptfooConfig(path).model).toEqual({
      sampling: {},
      variants: [
        { model: "small" },
        { model: "large", inference_url: "http://127.0.0.1:9/v1", name: "big-one" },
        { model: "large" },
      ],
    })
  })

  it("reads __expected cells as promptfoo 0.123.1 does", () => {
    expect(assertionOfExpected("42")).toEqual({ type: "equals", value: "42" })
    expect(assertionOfExpected("not-contains: foo ")).toEqual({ type: "not-contains", value: "foo" })
    expect(assertionOfExpected('icontains-any:a, "b, c"')).toEqual({ type: "icontains-any", value: ["a", "b, c"] })
    expect(assertionOfExpected("starts-with:ab")).toEqual({ type: "starts-with", value: "ab" })
    expect(assertionOfExpected("similar(0.9):hello")).toEqual({ type: "similar", value: "hello", threshold: 0.9 })
    expect(assertionOfExpected("grade: is polite")).toEqual({ type: "llm-rubric", value: " is polite" })
    expect(assertionOfExpected("fn: output.length")).toEqual({ type: "javascript", value: "output.length" })
  })

  it("scores a test as promptfoo does: weighted mean, all must pass unless the test sets a threshold", () => {
    const path = config(
      [
        "  - vars: { word: hi }",
        "    assert:",
        "      - { type: icontains, value: '{{word}}', weight: 3 }",
        "      - { type: not-starts-with, value: Hi }",
        "  - vars: { word: hi }",
        "    threshold: 0.7",
        "    assert:",
        "      - { type: icontains, value: '{{word}}', weight: 3 }",
        "      - { type: not-starts-with, value: Hi }",
        "      - { type: is-json, weight: 0 }",
      ].join("\n"),
      "defaultTest:\n  assert: [{ type: contains-any, value: 'there, you' }]\n",
    )
    const [plain, thresholded] = graded(path, "Hi there")
    // contains-any 1 (w 1) + icontains 1 (w 3) + not-starts-with 0 (w 1) → 4/5, failed (one assertion failed).
    expect(plain!.score).toEqual({ score: 0.8, passed: false, reason: "failed: not-starts-with" })
    expect(plain!["contains-any"]).toEqual({ score: 1, passed: true })
    // The same plus is-json 0 at weight 0 → still 4/5, and the threshold 0.7 passes it.
    expect(thresholded!.score).toMatchObject({ score: 0.8, passed: true })
    expect(graded(path, "zzz")[1]!.score).toMatchObject({ score: 1 / 5, passed: false })
  })
})

describe("a promptfoo python assertion's value, read as promptfoo 0.123.1 reads it", () => {
  it("booleans, numbers against the threshold, {pass, score, reason} and its JSON; not- flips the pass only", () => {
    const read = (value: unknown, threshold?: number, inverse = false) =>
      scriptVerdict("python", value, threshold, inverse)
    expect(read(true)).toEqual({ score: 1, passed: true })
    expect(read("False")).toEqual({ score: 0, passed: false })
    expect(read(false, undefined, true)).toEqual({ score: 1, passed: true })
    expect(read(0)).toEqual({ score: 0, passed: false })
    expect(read(0.2)).toEqual({ score: 0.2, passed: true })
    expect(read(0.2, 0.5)).toEqual({ score: 0.2, passed: false })
    expect(read("0.7", 0.5)).toEqual({ score: 0.7, passed: true })
    expect(read({ pass: true, score: 0.4, reason: "ok" }, 0.5)).toEqual({ score: 0.4, passed: false, reason: "ok" })
    expect(read('{"pass_": true, "score": 1, "reason": "fine"}')).toEqual({ score: 1, passed: true, reason: "fine" })
    expect(read({ pass: true, score: 1, reason: "x" }, undefined, true)).toMatchObject({ score: 1, passed: false })
    expect(read({ pass: true })).toMatchObject({ _tag: "GraderError", reason: "BadResult" })
    expect(read("maybe")).toMatchObject({ _tag: "GraderError", reason: "BadResult" })
  })
})
