import type { Command } from "commander"
import { createProgram } from "proctor"
import { configKeys } from "./configReference.js"
import { code, page, slug, table, text } from "./markdown.js"

/** One command of the CLI as the reference lists it: `proctor jobs watch`, with its arguments and flags. */
export interface CliCommand {
  readonly name: string
  readonly command: Command
}

/** Every command that does something (not the `jobs` group itself), depth first, as commander declares them. */
export const cliCommands = (): ReadonlyArray<CliCommand> => {
  // Declaring the commands runs none of them: an action would only call this.
  const program = createProgram(async () => {
    throw new Error("the docs generator runs no command")
  })
  const walk = (command: Command, prefix: string): ReadonlyArray<CliCommand> =>
    command.commands.flatMap((sub) => {
      const name = `${prefix} ${sub.name()}`
      return sub.commands.length === 0 ? [{ name, command: sub }] : walk(sub, name)
    })
  return walk(program, "proctor")
}

/** The long flags of a command (`--concurrency`), as a user types them. */
export const flagsOf = (command: Command): ReadonlyArray<string> =>
  command.options.filter((option) => !option.hidden).map((option) => option.long ?? option.flags)

/** `proctor eval`'s flags that set a config key, and the key each sets. */
const keyOfEvalFlag = (): ReadonlyMap<string, string> =>
  new Map(configKeys().flatMap((key) => (key.doc.flag === undefined ? [] : [[key.doc.flag, key.path] as const])))

const optionRow = (option: Command["options"][number], keyOf: ReadonlyMap<string, string>): ReadonlyArray<string> => {
  const key = option.long === undefined ? undefined : keyOf.get(option.long)
  const notes = [
    key === undefined ? null : `config key [${code(key)}](./config#${slug(key)})`,
    option.argChoices === undefined ? null : `one of ${option.argChoices.map(code).join(", ")}`,
    option.defaultValue === undefined ? null : `default ${code(String(option.defaultValue))}`,
  ].filter((note) => note !== null)
  return [code(option.flags), [text(option.description), ...notes].join("; ")]
}

const commandSection = ({ name, command }: CliCommand, keyOf: ReadonlyMap<string, string>): string => {
  const args = command.registeredArguments
  return [
    `## ${name}`,
    "",
    text(command.description()),
    "",
    "```sh no-run",
    `${name} ${command.usage()}`,
    "```",
    ...(args.length === 0
      ? []
      : [
          "",
          table(
            ["Argument", "Meaning"],
            args.map((arg) => [code(arg.required ? `<${arg.name()}>` : `[${arg.name()}]`), text(arg.description)]),
          ),
        ]),
    "",
    table(
      ["Flag", "Meaning"],
      command.options.filter((option) => !option.hidden).map((option) => optionRow(option, keyOf)),
    ),
  ].join("\n")
}

/** The CLI reference page. */
export const cliReference = (): string => {
  const commands = cliCommands()
  const evalKeys = keyOfEvalFlag()
  const body = [
    "Every command and flag of `proctor`, from its commander definitions. Every command also takes `-h, --help`;",
    "`proctor -V` prints the version. A usage error prints one line naming the flag and exits 2",
    "([exit codes](./exit-codes)).",
    "",
    commands.map(({ name }) => `- [${name}](#${slug(name)})`).join("\n"),
    "",
    commands
      .map((command) => commandSection(command, command.name === "proctor eval" ? evalKeys : new Map()))
      .join("\n\n"),
  ].join("\n")
  return page({ title: "CLI", source: "packages/cli/src/program/*.ts (createProgram)", body })
}
