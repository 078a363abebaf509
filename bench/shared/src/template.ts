import { readFileSync } from "node:fs"

/** A figure as a section shows it: already formatted (`1.21×`, `2.65`), or a count. */
export type Figures = Readonly<Record<string, string | number>>

/**
 * A bench's prose with its figures put in: each `{{name}}` is replaced by `figures[name]`. A placeholder without
 * a figure, or a figure the template does not show, is a mistake of the bench's and throws, naming it.
 */
export const fillTemplate = (template: string, figures: Figures): string => {
  const used = new Set<string>()
  const filled = template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!Object.hasOwn(figures, name)) throw new Error(`template: no figure for {{${name}}}`)
    used.add(name)
    return String(figures[name])
  })
  const unused = Object.keys(figures).filter((name) => !used.has(name))
  if (unused.length > 0) throw new Error(`template: no place for ${unused.map((name) => `{{${name}}}`).join(", ")}`)
  return filled
}

/**
 * Reads a bench's templates (`bench/NAME/templates/FILE.md`, from its dist/ or src/: `new URL("../templates/",
 * import.meta.url)`), each without the newline that ends the file.
 */
export const readTemplates = <const Name extends string>(
  folder: URL,
  names: ReadonlyArray<Name>,
): Readonly<Record<Name, string>> =>
  Object.fromEntries(
    names.map((name) => [name, readFileSync(new URL(`${name}.md`, folder), "utf8").replace(/\n$/, "")]),
  ) as Record<Name, string>

/** The rows of a markdown table, under the header line that starts with `header` (a section's figures). */
export const tableRowsUnder = (markdown: string, header: string): string => {
  const lines = markdown.split("\n")
  const start = lines.findIndex((line) => line.startsWith(header)) + 2
  const end = lines.findIndex((line, i) => i >= start && !line.startsWith("|"))
  return lines.slice(start, end).join("\n")
}
