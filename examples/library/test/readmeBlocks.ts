/**
 * The code blocks of a Markdown file and what each says about running. The convention (the fence's info
 * string, after the language, so GitHub still highlights the block):
 *
 * - ```ts              compiled against the built packages (type-checked) and run with node; must exit 0.
 * - ```ts no-run       only type-checked.
 * - ```ts service      type-checked, then started like a shell service (a task app the next blocks call).
 * - ```sh run          run with bash from the repository root (`set -euo pipefail`); must exit 0, or
 *                      `exit=N`. Blocks run in the file's order.
 * - ```sh service      each line starts a server in the background, ready once it prints a URL or
 *                      "listening"; all are stopped after the last block.
 * - ```sh no-run       shown only (placeholders, setup that needs the network, …).
 *
 * A shell block that says none of these is an error, so no block escapes by being forgotten. Other
 * languages (toml, text) are not programs and are left alone.
 */
export type BlockMode = "run" | "service" | "no-run"

export interface CodeBlock {
  /** 1-based line of the opening fence. */
  readonly line: number
  readonly language: "ts" | "sh"
  readonly mode: BlockMode
  readonly expectedExit: number
  readonly code: string
}

const LANGUAGES: Readonly<Record<string, CodeBlock["language"]>> = {
  ts: "ts",
  typescript: "ts",
  sh: "sh",
  bash: "sh",
  shell: "sh",
}
const MODES = new Set<string>(["run", "service", "no-run"])

export interface ParsedBlocks {
  readonly blocks: ReadonlyArray<CodeBlock>
  /** One message per block that breaks the convention, naming its line. */
  readonly problems: ReadonlyArray<string>
}

export const readmeBlocks = (markdown: string, file = "README.md"): ParsedBlocks => {
  const lines = markdown.split("\n")
  const blocks: Array<CodeBlock> = []
  const problems: Array<string> = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S*)\s*(.*)$/.exec(lines[i]!)
    if (open === null) continue
    const [, indent, fence, info, rest] = open as unknown as [string, string, string, string, string]
    const body: Array<string> = []
    let j = i + 1
    while (j < lines.length && !lines[j]!.trimStart().startsWith(fence)) body.push(lines[j++]!.slice(indent.length))
    const start = i + 1
    i = j
    const language = LANGUAGES[info.toLowerCase()]
    if (language === undefined) continue
    const words = rest.split(/\s+/).filter((word) => word !== "")
    const modes = words.filter((word) => MODES.has(word))
    const exitWord = words.find((word) => word.startsWith("exit="))
    const unknown = words.filter((word) => !MODES.has(word) && word !== exitWord)
    const where = `${file}:${start}`
    if (unknown.length > 0) problems.push(`${where}: unknown marker ${unknown.join(" ")} (use run, service or no-run)`)
    if (modes.length > 1) problems.push(`${where}: one of run, service or no-run, not ${modes.join(" and ")}`)
    const mode = (modes[0] ?? (language === "ts" ? "run" : undefined)) as BlockMode | undefined
    if (mode === undefined) {
      problems.push(`${where}: a \`\`\`${info} block must say whether it runs: \`\`\`${info} run | service | no-run`)
      continue
    }
    const expectedExit = exitWord === undefined ? 0 : Number(exitWord.slice("exit=".length))
    if (!Number.isInteger(expectedExit)) problems.push(`${where}: ${exitWord} is not an exit code`)
    blocks.push({ line: start, language, mode, expectedExit, code: body.join("\n") })
  }
  return { blocks, problems }
}
