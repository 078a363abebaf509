import { Command, CommanderError } from "commander"
import { ExitCode } from "./exitCodes.js"
import { processIo } from "./Io.js"
import { HELP_WIDTH } from "./internal/staticAnswers.js"
import { registerCompareCommand } from "./program/compare.js"
import { registerEvalCommand } from "./program/eval.js"
import { registerExportCommand } from "./program/export.js"
import { FLAG_VALUE_ERROR } from "./program/flagTable.js"
import { registerGradeCommand } from "./program/grade.js"
import { registerJobsCommands } from "./program/jobs.js"
import { registerKeysCommands } from "./program/keys.js"
import { registerPricingCommands } from "./program/pricing.js"
import type { RunCommand } from "./program/RunCommand.js"
import { registerReportCommand } from "./program/report.js"
import { registerSandboxCommands } from "./program/sandbox.js"
import { registerServeCommand } from "./program/serve.js"
import { registerTaskAppCommands } from "./program/taskApp.js"
import { registerViewCommand } from "./program/view.js"
import { registerWorkerCommand } from "./program/worker.js"
import { cliVersion } from "./version.js"

/** The command `argv` names (`proctor jobs watch` for `jobs watch ID --x`), as far as it is known. */
const commandNamed = (program: Command, argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const names: Array<string> = []
  let command = program
  for (const word of argv) {
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word))
    if (sub === undefined) break
    names.push(word)
    command = sub
  }
  return names
}

/** A usage error in one line and where to read more, instead of commander's error followed by the whole usage. */
const usageError = async (program: Command, argv: ReadonlyArray<string>, error: CommanderError): Promise<string> => {
  const names = commandNamed(program, argv)
  // A value a flag's parser refused: its line names the flag and what was expected, which is the whole answer.
  if (error.code === FLAG_VALUE_ERROR) return `${["proctor", ...names].join(" ")}: ${error.message}\n`
  const { proctorCommand } = await import("./invocation.js")
  const what = error.message
    .replace(/^error: /, "")
    .replace(/\s*\n\s*/g, " ")
    .replace(/\.$/, "")
  return `${["proctor", ...names].join(" ")}: ${what}; see \`${proctorCommand(...names, "--help")}\`\n`
}

/**
 * Every command and flag, each action calling `run`. Declaring them runs nothing and loads no command, so the
 * docs' CLI reference walks this tree.
 */
export const createProgram = (run: RunCommand): Command => {
  const program = new Command("proctor")
    .description("Evaluate LLM agents and policies on task apps: fast, durable, traced and priced.")
    .version(cliVersion(), "-V, --version", "print proctor's version")
    .exitOverride()
    // Subcommands inherit these: usage errors are printed once, by `usageError`; help is laid out for 80 columns
    // on any terminal, as git's is, so it is the same text everywhere (and the build prints it ahead: bin.ts).
    .configureOutput({ outputError: () => {} })
    .configureHelp({ helpWidth: HELP_WIDTH })

  registerEvalCommand(program, run)
  registerTaskAppCommands(program, run)
  registerGradeCommand(program, run)
  registerCompareCommand(program, run)
  registerExportCommand(program, run)
  registerViewCommand(program, run)
  // job server commands
  registerJobsCommands(program, run)
  registerServeCommand(program, run)
  registerWorkerCommand(program, run)
  registerKeysCommands(program, run)
  registerReportCommand(program, run)
  registerSandboxCommands(program, run)
  registerPricingCommands(program, run)
  return program
}

/** Parses arguments and runs one command; resolves to the process exit code. */
export const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  let exitCode: number = ExitCode.Ok
  const run: RunCommand = async (load) => {
    const command = await load(processIo())
    exitCode = typeof command === "number" ? command : await (await import("./runEffect.js")).runExit(command)
  }
  const program = createProgram(run)

  try {
    await program.parseAsync([...argv], { from: "user" })
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error
    if (error.exitCode === 0) return ExitCode.Ok
    // `proctor` or `proctor jobs` alone: commander has printed the usage, which is the answer.
    if (error.code !== "commander.help") process.stderr.write(await usageError(program, argv, error))
    return ExitCode.Usage
  }
  return exitCode
}
