import type { RunSummary } from "@proctor/core"
import { summaryItems } from "./summaryItems.js"

/** A compact summary block for the terminal, without a trailing newline. */
export const formatSummaryText = (summary: RunSummary): string => {
  const items = summaryItems(summary)
  const width = Math.max(...items.map(([label]) => label.length))
  return [
    `Summary (run ${summary.run_id})`,
    ...items.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
  ].join("\n")
}
