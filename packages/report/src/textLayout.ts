import { displayWidth } from "./format.js"

/** Widens `widths` (one per column, grown in place) to fit a row. */
export const fitWidths = (widths: Array<number>, cells: ReadonlyArray<string>): void => {
  cells.forEach((cell, i) => {
    widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))
  })
}

/** synth-ai's row: every cell left-justified to its column, joined by ` | `; the last is padded too. */
export const renderRow = (cells: ReadonlyArray<string>, widths: ReadonlyArray<number>): string =>
  cells.map((cell, i) => cell + " ".repeat(Math.max(0, (widths[i] ?? 0) - displayWidth(cell)))).join(" | ")

export const renderSeparator = (widths: ReadonlyArray<number>): string => widths.map((w) => "-".repeat(w)).join("-+-")

/** The line standing in for the rows a capped table leaves out. */
export const moreRows = (hidden: number): string => `… ${hidden} more row${hidden === 1 ? "" : "s"}`
