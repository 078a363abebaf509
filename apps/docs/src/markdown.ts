/** Markdown for the generated reference pages: escaping for VitePress (markdown-it, then Vue) and tables. */

/**
 * Text in a table cell or a paragraph: no table breaks, no HTML tags, no emphasis. Spans in backticks stay code
 * (descriptions in the code write `ENVIRONMENT_API_KEY` so).
 */
export const text = (value: string): string =>
  value
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part.replaceAll("|", "\\|") : escapeProse(part)))
    .join("")
    .replace(/\s*\n\s*/g, " ")

const escapeProse = (value: string): string =>
  value
    .replaceAll("\\", "\\\\")
    .replaceAll("|", "\\|")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("*", "\\*")
    .replaceAll("_", "\\_")

/** Inline code; a `|` is escaped so the code can sit in a table cell. */
export const code = (value: string): string => {
  const body = value.replaceAll("|", "\\|").replace(/\s*\n\s*/g, " ")
  const fence = body.includes("`") ? "``" : "`"
  return `${fence}${fence.length > 1 ? " " : ""}${body}${fence.length > 1 ? " " : ""}${fence}`
}

export const table = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string =>
  [
    `| ${headers.join(" | ")} |`,
    `| ${headers.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n")

/**
 * The first lines of every generated page: what it is generated from, so nobody edits it by hand. Pages are
 * rendered inside `::: v-pre` so nothing the code says can be read by Vue as a template.
 */
export const page = (options: { readonly title: string; readonly source: string; readonly body: string }): string =>
  [
    `<!-- Generated from ${options.source} by apps/docs/src/generate.ts: do not edit; run \`pnpm docs:generate\`. -->`,
    "",
    `# ${options.title}`,
    "",
    "::: v-pre",
    options.body.trim(),
    ":::",
    "",
  ].join("\n")

/**
 * A heading's anchor. VitePress's own rule (the site's config hands it this function), so pages can link to
 * sections they generate: `GET /api/eval/jobs/{id}` → `get-api-eval-jobs-id`, `policy_config.model` →
 * `policy-config-model`.
 */
export const slug = (heading: string): string =>
  heading
    .normalize("NFKD")
    .replace(/[\u0300-\u036F]/g, "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is dropped
    .replace(/[\u0000-\u001f]/g, "")
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .replace(/^(\d)/, "_$1")
    .toLowerCase()
