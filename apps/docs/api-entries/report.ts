/**
 * Results as tables, JSON, text, Markdown, HTML reports, JUnit, SFT JSONL and trace files; `compareResults` for
 * paired comparisons of two runs.
 * @module @proctor/report
 */
export * from "@proctor/report"
