import type { RunSummary } from "@proctor/core"
import { summaryItems } from "./summaryItems.js"
import type { ResultTable } from "./table.js"
import { moreRows } from "./textLayout.js"

/** Keeps a cell inside its table cell: pipes would split it, and raw HTML would render on GitHub. */
const escapeCell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("<", "&lt;")

export const markdownRow = (cells: ReadonlyArray<string>): string => `| ${cells.map(escapeCell).join(" | ")} |`

/** The results table as GitHub markdown, numbers right-aligned, the `avg` row in bold. */
export const markdownTable = (table: ResultTable): string => {
  const align = table.headers.map((h) => (h === "error" ? "---" : "---:"))
  const average = table.averageRow.map((cell) => (cell === "-" ? cell : `**${cell}**`))
  const lines = [
    markdownRow(table.headers),
    `| ${align.join(" | ")} |`,
    ...table.rows.map(markdownRow),
    markdownRow(average),
  ]
  if (table.hiddenRows > 0) lines.push("", `${moreRows(table.hiddenRows)} not shown; the avg row covers them all.`)
  return lines.join("\n")
}

/** The summary and, when given, the results table, as one GitHub markdown document (e.g. a CI comment). */
export const formatMarkdown = (summary: RunSummary, table?: ResultTable): string => {
  const status = summary.is_valid ? "✅ valid" : "⚠️ not valid"
  const lines = [
    `### proctor eval \`${summary.run_id}\` — ${status}`,
    "",
    "| metric | value |",
    "| --- | --- |",
    ...summaryItems(summary).map(([label, value]) => markdownRow([label, value])),
  ]
  if (table !== undefined) lines.push("", "#### Results", "", markdownTable(table))
  return `${lines.join("\n")}\n`
}
