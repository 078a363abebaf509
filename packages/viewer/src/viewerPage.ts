// Written by the Vite build (vite.config.ts): the page, one self-contained HTML file, as a string.
import { PAGE_HTML } from "../dist/page.js"
import {
  type EmbeddedData,
  FIRST_ROWS_PAGE,
  GRID_PATH,
  type RolloutDetail,
  RUNS_PATH,
  rolloutTagId,
  rowsPath,
  type ViewerConfig,
} from "./apiShapes.js"

/** The script tags go in here; the built page has exactly one. */
const SLOT = "<!--proctor-slot-->"

/**
 * JSON that cannot end its script element: `<` is written `\u003c` (the same JSON), so no string in a result
 * — `</script>` in a model's answer, say — can close the tag and run as HTML. U+2028/9 are escaped too.
 */
export const scriptJson = (json: string): string =>
  json
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")

const scriptTag = (id: string, json: string) =>
  `<script id="${id}" type="application/json">${scriptJson(json)}</script>`

/** The embedded data without its transcripts: what the page parses as it opens. */
export const embeddedDataTag = (data: Omit<EmbeddedData, "rollouts">): string =>
  scriptTag("proctor-data", JSON.stringify(data))

/**
 * One embedded transcript in a tag of its own, so that opening a report parses the rows only, and each
 * transcript when it is shown: a report of 50 MB of transcripts opens as fast as one without.
 */
export const embeddedRolloutTag = (key: string, detail: RolloutDetail): string =>
  scriptTag(rolloutTagId(key), JSON.stringify(detail))

/**
 * A page over a local data API asks for the run heads and the table's first rows while its HTML is still being
 * read, not once its script has been compiled and run; the script's own requests take the preloaded answers.
 * A grid's page opens on the grid, so that is asked for too. The job server's page cannot: its requests carry the
 * signed-in key.
 */
const preloadTags = (config: ViewerConfig): string =>
  config.mode !== "local"
    ? ""
    : [RUNS_PATH, rowsPath(0, 0, FIRST_ROWS_PAGE), ...(config.grid === true ? [GRID_PATH] : [])]
        .map((path) => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${config.base}${path}">`)
        .join("")

/** The page around its data tags, for writing a large report piece by piece: `before` + tags + `after`. */
export const viewerPageParts = (config: ViewerConfig): { readonly before: string; readonly after: string } => {
  const at = PAGE_HTML.indexOf(SLOT)
  if (at < 0) throw new Error(`the built viewer page has no ${SLOT}: rebuild @proctor/viewer`)
  return {
    before: `${PAGE_HTML.slice(0, at)}${preloadTags(config)}${scriptTag("proctor-config", JSON.stringify(config))}`,
    after: PAGE_HTML.slice(at + SLOT.length),
  }
}

/**
 * The viewer as one self-contained HTML document (scripts and styles inlined; nothing fetched but the data
 * API), told its mode and where its data is; with `data`, the data itself (`proctor report --html`).
 */
export const viewerPage = (config: ViewerConfig, data?: EmbeddedData): string => {
  const { before, after } = viewerPageParts(config)
  if (data === undefined) return `${before}${after}`
  const { rollouts, ...head } = data
  const transcripts = Object.entries(rollouts).map(([key, detail]) => embeddedRolloutTag(key, detail))
  return `${before}${embeddedDataTag(head)}${transcripts.join("")}${after}`
}
