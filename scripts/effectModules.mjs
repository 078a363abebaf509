// An esbuild plugin for the packages that bundle proctor's sources (the CLI, the task-app SDK).
import { readFile } from "node:fs/promises"

/**
 * proctor's sources import Effect's modules from its index (`import { Effect, Schema } from "effect"`), and
 * esbuild does two costly things with that index: it builds each module's namespace object with every export,
 * so nothing a command uses of Schema or Stream is tree-shaken; and it assigns files to chunks by static
 * import, so every effect module any command uses is reachable from every command through the index, and
 * lands in the one chunk all of them load. `proctor eval` compiled ~920 KB of effect (and fast-check, for
 * Schema's arbitraries) this way; importing each module directly, ~480 KB. This rewrites the imports to what
 * effect's docs give as equivalent (`import * as Effect from "effect/Effect"`), keeping lines where they were;
 * an import of "effect" it cannot rewrite fails the build.
 */
export const effectModules = {
  name: "effect-modules",
  setup(build) {
    build.onLoad({ filter: /\/packages\/[^/]+\/src\/.+\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8")
      const contents = source.replace(
        /import\s+(type\s+)?\{([^}]*)\}\s*from\s*"effect"/g,
        (statement, allTypes, names) =>
          names
            .split(",")
            .map((name) => name.trim())
            .filter((name) => name !== "")
            .map((name) => {
              const [, type, module] = /^(type\s+)?([A-Z][A-Za-z]*)$/.exec(name) ?? []
              if (module === undefined) throw new Error(`${args.path}: cannot rewrite "${name}" of ${statement}`)
              return `import ${allTypes ?? type ?? ""}* as ${module} from "effect/${module}";`
            })
            .join(" ") + "\n".repeat(statement.split("\n").length - 1),
      )
      if (/from\s*"effect"|import\(\s*"effect"\s*\)/.test(contents.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, ""))) {
        throw new Error(`${args.path}: an import of "effect" that build.mjs does not rewrite`)
      }
      return { contents, loader: "ts" }
    })
  },
}
