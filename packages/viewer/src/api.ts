/**
 * The data API's shapes and the one rule for a row, without the page: servers import this entry, so a CLI
 * chunk that answers rows never carries the page's HTML along.
 */

export * from "./apiShapes.js"
export { ROW_ERROR_CHARS, rolloutRow } from "./rolloutRow.js"
