/**
 * Results as tables, JSON, text, Markdown, JUnit, CSV, SFT JSONL and trace files; `compareResults` for
 * paired comparisons of two runs.
 * @module @proctor/report
 */
export * from "@proctor/report"
