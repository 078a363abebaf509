import { readFileSync } from "node:fs"

/**
 * What `proctor [COMMAND…] --help` and `proctor --version` print is fixed when the CLI is built: build.mjs
 * renders it with the program itself into dist/static-answers.json, and the entry prints it from there without
 * loading the program (test/staticAnswers.test.ts holds each answer to what the program prints).
 */
export type StaticAnswers = Readonly<Record<string, string>>

export const STATIC_ANSWERS_FILE = "static-answers.json"

/** The width help is laid out for, whatever the terminal's (main.ts). */
export const HELP_WIDTH = 80

export const answerKey = (argv: ReadonlyArray<string>): string => argv.join("\u0000")

/** The words an answered command line ends with (build.mjs asks for these only): other commands read no file. */
export const ANSWERED_LAST_WORDS: ReadonlyArray<string> = ["--help", "-h", "--version", "-V"]

/** Whether `argv` may have a build-time answer: anything else goes straight to the program. */
export const mayBeAnswered = (argv: ReadonlyArray<string>): boolean => ANSWERED_LAST_WORDS.includes(argv.at(-1) ?? "")

export const readStaticAnswers = (file: URL): StaticAnswers => {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as StaticAnswers
  } catch {
    // Not built (the sources run under a test runner), or unreadable: the program answers.
    return {}
  }
}

/** What the program prints for `argv`, or null when it must run to answer. */
export const staticAnswer = (answers: StaticAnswers, argv: ReadonlyArray<string>): string | null => {
  const key = answerKey(argv)
  return Object.hasOwn(answers, key) ? (answers[key] ?? null) : null
}
