import { spawn } from "node:child_process"
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import type { Command } from "commander"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  answerKey,
  mayBeAnswered,
  STATIC_ANSWERS_FILE,
  type StaticAnswers,
  staticAnswer,
} from "../src/internal/staticAnswers.js"
import { createProgram } from "../src/main.js"
import { captured, cleanEnv, cliBin, ensureBuilt } from "./fixtures/harness.js"

/** `--help` and `--version` printed from the build's answers must be what the program itself prints. */

let answers: StaticAnswers
let alone: string

beforeAll(() => {
  ensureBuilt()
  answers = JSON.parse(readFileSync(join(dirname(cliBin), STATIC_ANSWERS_FILE), "utf8")) as StaticAnswers
  // The entry and the answers without the program: what it prints from here, it printed without the program.
  alone = mkdtempSync(join(tmpdir(), "proctor-static-answers-"))
  for (const file of ["bin.cjs", STATIC_ANSWERS_FILE]) copyFileSync(join(dirname(cliBin), file), join(alone, file))
}, 300_000)

afterAll(() => rmSync(alone, { recursive: true, force: true }))

const commandsOf = (command: Command): ReadonlyArray<Command> => [command, ...command.commands.flatMap(commandsOf)]

const pathsOf = (command: Command, path: ReadonlyArray<string> = []): ReadonlyArray<ReadonlyArray<string>> => [
  path,
  ...command.commands.flatMap((sub) => pathsOf(sub, [...path, sub.name()])),
]

/** What the program (from its sources) writes to standard output for `argv` on a terminal of `width` columns. */
const printedByProgram = async (argv: ReadonlyArray<string>, width: number, colors: boolean): Promise<string> => {
  let text = ""
  const program = createProgram(async () => {})
  for (const command of commandsOf(program)) {
    command.configureOutput({
      writeOut: (chunk) => {
        text += chunk
      },
      writeErr: () => {},
      outputError: () => {},
      getOutHelpWidth: () => width,
      getOutHasColors: () => colors,
    })
  }
  await program.parseAsync([...argv], { from: "user" }).catch(() => {})
  return text
}

const run = (args: ReadonlyArray<string>) =>
  captured(
    spawn(process.execPath, [join(alone, "bin.cjs"), ...args], { env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] }),
  ).done

describe("proctor --help and --version from the build's answers", () => {
  it("has an answer for --help and -h of every command, and for --version and -V", () => {
    const asked = [
      ["--version"],
      ["-V"],
      ...pathsOf(createProgram(async () => {})).flatMap((path) => [
        [...path, "--help"],
        [...path, "-h"],
      ]),
    ]
    expect(Object.keys(answers).sort()).toEqual(asked.map(answerKey).sort())
    // The entry reads the file only for these: none is left unread.
    for (const argv of asked) expect(mayBeAnswered(argv), argv.join(" ")).toBe(true)
  })

  it("each answer is what the program prints, to a pipe or to a terminal of any width, in colour or not", async () => {
    for (const [key, text] of Object.entries(answers)) {
      const argv = key.split("\u0000")
      for (const width of [40, 80, 120, 240]) {
        for (const colors of [false, true]) {
          expect(await printedByProgram(argv, width, colors), `${argv.join(" ")} at ${width} columns`).toBe(text)
        }
      }
    }
  })

  it("anything else goes to the program", () => {
    expect(staticAnswer(answers, ["eval", "--help"])).toBe(answers[answerKey(["eval", "--help"])])
    for (const argv of [["eval", "--config", "x.toml", "--help"], ["constructor"], ["eval"], []]) {
      expect(staticAnswer(answers, argv), argv.join(" ")).toBeNull()
    }
    // A command line that ends in no answered word is not even looked up.
    for (const argv of [["eval", "--config", "x.toml"], ["jobs", "list"], []]) expect(mayBeAnswered(argv)).toBe(false)
  })

  it("the built entry prints them without its program, and exits 0", async () => {
    for (const argv of [["--help"], ["jobs", "list", "-h"], ["--version"]]) {
      const result = await run(argv)
      expect(result, argv.join(" ")).toMatchObject({ code: 0, stderr: "", stdout: answers[answerKey(argv)] })
    }
    // Anything else needs the program, which is not there.
    expect((await run(["eval", "--bogus"])).code).not.toBe(0)
  })
})
