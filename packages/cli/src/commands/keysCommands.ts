import { Effect } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { proctorCommand } from "../invocation.js"
import type { KeyStoreOptions, KeysCreateOptions } from "../program/keys.js"
import { defaultDataDir } from "./serveCommand.js"

const storeOf = (options: KeyStoreOptions, io: Io) => {
  const databaseUrl = options.databaseUrl ?? io.env.PROCTOR_DATABASE_URL
  return databaseUrl === undefined ? { dataDir: options.dataDir ?? defaultDataDir(io.env) } : { databaseUrl }
}

/** The flags that point a hinted `proctor keys …` command at the same store. */
const storeFlags = (options: KeyStoreOptions): ReadonlyArray<string> => [
  ...(options.dataDir === undefined ? [] : ["--data-dir", options.dataDir]),
  ...(options.databaseUrl === undefined ? [] : ["--database-url", options.databaseUrl]),
]

/** Runs one key-store operation of the server package (loaded only here), turning a failure into exit 1. */
const withServer = <A>(
  name: string,
  io: Io,
  use: (server: typeof import("@proctor/server")) => Promise<A>,
  onSuccess: (value: A) => ExitCode,
): Effect.Effect<ExitCode> =>
  Effect.promise(() => import("@proctor/server")).pipe(
    Effect.flatMap((server) => Effect.tryPromise(() => use(server))),
    Effect.match({
      onFailure: (error) => {
        const cause = error.error
        io.stderr.write(`proctor keys ${name}: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return ExitCode.Failed
      },
      onSuccess,
    }),
  )

/**
 * `proctor keys create`: the only time a key is shown. It goes to stdout alone on its line (or in `--json`)
 * so a script can capture it; the server keeps only its hash.
 */
export const keysCreateCommand = (options: KeysCreateOptions, io: Io): Effect.Effect<ExitCode> => {
  const name = options.name?.trim() ?? ""
  if (name === "" || name.length > 100) {
    io.stderr.write("proctor keys create: --name: expected 1 to 100 characters\n")
    return Effect.succeed(ExitCode.Usage)
  }
  return withServer(
    "create",
    io,
    (server) => server.createApiKey({ ...storeOf(options, io), name, admin: options.admin === true }),
    (created) => {
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify(created, null, 2)}\n`)
      } else {
        io.stdout.write(`${created.key}\n`)
        io.stderr.write(
          `created key ${created.id} (${created.name}${created.isAdmin ? ", admin" : ""}): store it now, it is not shown again\n`,
        )
      }
      return ExitCode.Ok
    },
  )
}

/** `proctor keys list`: ids, names, display prefixes and states; never a key. */
export const keysListCommand = (options: KeyStoreOptions, io: Io): Effect.Effect<ExitCode> =>
  withServer(
    "list",
    io,
    (server) => server.listApiKeys(storeOf(options, io)),
    (keys) => {
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify(keys, null, 2)}\n`)
        return ExitCode.Ok
      }
      if (keys.length === 0) {
        io.stdout.write(
          `no keys: create one with ${proctorCommand("keys", "create", "--name", "NAME", ...storeFlags(options))}\n`,
        )
        return ExitCode.Ok
      }
      const rows = [
        ["id", "name", "prefix", "admin", "created", "revoked"],
        ...keys.map((k) => [k.id, k.name, k.prefix, k.isAdmin ? "yes" : "no", k.createdAt, k.revokedAt ?? "-"]),
      ]
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
      const render = (row: ReadonlyArray<string>) => row.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")
      io.stdout.write(
        `${[render(rows[0]!), widths.map((w) => "-".repeat(w)).join("-+-"), ...rows.slice(1).map(render)].join("\n")}\n`,
      )
      return ExitCode.Ok
    },
  )

/** `proctor keys revoke ID`: the key stops working (a running server's status polls within a second); its jobs stay. */
export const keysRevokeCommand = (id: string, options: KeyStoreOptions, io: Io): Effect.Effect<ExitCode> =>
  withServer(
    "revoke",
    io,
    (server) => server.revokeApiKey({ ...storeOf(options, io), id }),
    (revoked) => {
      if (!revoked) {
        io.stderr.write(
          `proctor keys revoke: no active key ${id} (see ${proctorCommand("keys", "list", ...storeFlags(options))})\n`,
        )
        return ExitCode.Usage
      }
      io.stdout.write(`revoked key ${id}\n`)
      return ExitCode.Ok
    },
  )
