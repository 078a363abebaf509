import type { EvalResult } from "@proctor/core"
import { xmlText } from "./xml.js"

/** The counts a `<testsuite>` element declares, gathered in a first pass over the results. */
export class JunitCounts {
  tests = 0
  failures = 0
  errors = 0
  seconds = 0

  add(result: EvalResult, passThreshold: number): void {
    this.tests++
    const outcome = outcomeOf(result, passThreshold)
    if (outcome._tag === "Failure") this.failures++
    if (outcome._tag === "Error") this.errors++
    this.seconds += (result.latency_ms ?? 0) / 1000
  }
}

type Outcome =
  | { readonly _tag: "Pass" }
  | { readonly _tag: "Failure"; readonly message: string }
  | { readonly _tag: "Error"; readonly kind: string; readonly message: string }

/** A wrong answer (a score below the pass threshold, or none) fails; an errored rollout is an error. */
const outcomeOf = (result: EvalResult, passThreshold: number): Outcome => {
  if (result.status === "error") {
    return { _tag: "Error", kind: result.error_kind ?? "unknown", message: result.error ?? result.error_kind ?? "" }
  }
  if (result.score === null) return { _tag: "Failure", message: "the task app reported no score" }
  if (result.score < passThreshold) {
    return { _tag: "Failure", message: `score ${result.score} is below the pass threshold ${passThreshold}` }
  }
  return { _tag: "Pass" }
}

const seconds = (s: number): string => String(Math.round(s * 1000) / 1000)

const MESSAGE_CHARS = 200

export interface JunitSuite {
  /** The suite's name: the run id. */
  readonly name: string
  /** Every test case's class name (CI tools group by it): `proctor.{app_id}`. */
  readonly classname: string
  readonly timestamp: string | null
  readonly counts: JunitCounts
}

/** The document up to the first `<testcase>`: one suite of the run's rollouts inside `<testsuites>`. */
export const junitOpen = (suite: JunitSuite): string => {
  const { tests, failures, errors } = suite.counts
  const counts = `tests="${tests}" failures="${failures}" errors="${errors}"`
  const time = `time="${seconds(suite.counts.seconds)}"`
  const timestamp = suite.timestamp === null ? "" : ` timestamp="${xmlText(suite.timestamp)}"`
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="proctor" ${counts} ${time}>\n` +
    `  <testsuite name="${xmlText(suite.name)}" ${counts} skipped="0" ${time}${timestamp}>\n`
  )
}

export const junitClose = (): string => "  </testsuite>\n</testsuites>\n"

/**
 * One rollout as `<testcase name="seed S attempt A">`: a wrong answer holds a `<failure>` whose text is what
 * the task app said about it (`details`), an errored rollout an `<error>` of its kind with the full message.
 */
export const junitTestcase = (result: EvalResult, suite: JunitSuite, passThreshold: number): string => {
  const open =
    `    <testcase name="seed ${result.seed} attempt ${result.attempt}" classname="${xmlText(suite.classname)}"` +
    ` time="${seconds((result.latency_ms ?? 0) / 1000)}"`
  const outcome = outcomeOf(result, passThreshold)
  switch (outcome._tag) {
    case "Pass":
      return `${open}/>\n`
    case "Failure": {
      const details = result.details === undefined ? "" : xmlText(JSON.stringify(result.details))
      return `${open}>\n      <failure type="wrong_answer" message="${xmlText(outcome.message)}">${details}</failure>\n    </testcase>\n`
    }
    case "Error": {
      const message = xmlText(outcome.message.slice(0, MESSAGE_CHARS))
      return `${open}>\n      <error type="${xmlText(outcome.kind)}" message="${message}">${xmlText(outcome.message)}</error>\n    </testcase>\n`
    }
  }
}
