/**
 * `@proctor/report/html`: the HTML report (`proctor report --html`). An entry of its own: it carries the viewer's
 * page (~140 KB), which no other user of @proctor/report should load or bundle.
 */
export * from "./htmlReport.js"
