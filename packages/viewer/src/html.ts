/**
 * `@proctor/viewer/html`: the HTML report (`proctor report --html`), the viewer's page with a run's data
 * embedded. An entry of its own: it loads @proctor/report's summaries and comparison, which the page's other
 * users (`proctor view`, the job server) do not need.
 */
export * from "./htmlReport.js"
