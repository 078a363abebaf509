import type { Command } from "commander"
import { addFlags, type FlagValues, text, toggle } from "./flagTable.js"
import { jsonFlag } from "./jobServerFlags.js"
import type { RunCommand } from "./RunCommand.js"

/** Where the job server's keys are: every `keys` subcommand takes these. */
export const keyStoreFlags = {
  dataDir: text("--data-dir <dir>", "the job server's data directory (default PROCTOR_DATA_DIR or .proctor)"),
  databaseUrl: text("--database-url <url>", "the job server's PostgreSQL database (default PROCTOR_DATABASE_URL)"),
  ...jsonFlag,
}
export type KeyStoreOptions = FlagValues<typeof keyStoreFlags>

export const keysCreateFlags = {
  ...keyStoreFlags,
  name: text("--name <name>", "who or what the key is for"),
  admin: toggle("--admin", "the key may see every key's jobs"),
}
export type KeysCreateOptions = FlagValues<typeof keysCreateFlags>

/** Declares `proctor keys create|list|revoke`; their implementation (commands/keysCommands.ts) loads when one runs. */
export const registerKeysCommands = (program: Command, run: RunCommand): void => {
  const keysCommands = () => import("../commands/keysCommands.js")
  const keys = program.command("keys").description("API keys of a job server (run where its database is)")
  addFlags(keys.command("create").description("create an API key and print it once"), keysCreateFlags).action(
    (options: KeysCreateOptions) => run(async (io) => (await keysCommands()).keysCreateCommand(options, io)),
  )
  addFlags(keys.command("list").description("list keys (never the keys themselves)"), keyStoreFlags).action(
    (options: KeyStoreOptions) => run(async (io) => (await keysCommands()).keysListCommand(options, io)),
  )
  addFlags(keys.command("revoke").description("revoke a key; its jobs stay"), keyStoreFlags)
    .argument("<id>", "key id (key_…)")
    .action((id: string, options: KeyStoreOptions) =>
      run(async (io) => (await keysCommands()).keysRevokeCommand(id, options, io)),
    )
}
