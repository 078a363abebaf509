#!/usr/bin/env -S node --
// Why `--`: Node 20 reads `--env-file` (and `--env-file=`) anywhere on its command line, after the script's name
// too, and exits 9 when the file is missing, before proctor runs; `proctor eval --env-file` is synth-ai's flag.
// Node stops reading its own options at `--`. Run directly, the same holds: `node -- dist/bin.cjs …`. A package
// manager is a Node process too: `pnpm proctor -- eval --env-file .env` keeps the flag from its Node, and
// passes the `--` on, which is dropped here.
import { loadScript } from "./internal/loadScript.js"
import { mayBeAnswered, readStaticAnswers, STATIC_ANSWERS_FILE, staticAnswer } from "./internal/staticAnswers.js"
import { dropOutputToClosedPipes } from "./quietPipes.js"

dropOutputToClosedPipes(process.stdout, process.stderr)

const args = process.argv.slice(2)
const argv = args[0] === "--" ? args.slice(1) : args
// `--help` and `--version`, rendered by the build: printed without loading the program.
const answer = mayBeAnswered(argv)
  ? staticAnswer(readStaticAnswers(new URL(STATIC_ANSWERS_FILE, import.meta.url)), argv)
  : null
if (answer !== null) process.stdout.write(answer)
else {
  // main.ts, bundled into one script with its code cache (build.mjs): every command parses its arguments with it.
  const { main } = loadScript(new URL("program-script.js", import.meta.url)).exports as typeof import("./main.js")
  main(argv).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      process.stderr.write(`proctor: internal error: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exitCode = 1
    },
  )
}
