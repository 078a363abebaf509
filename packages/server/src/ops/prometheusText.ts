/** Prometheus text exposition (version 0.0.4): one home for its escaping and its `# HELP` / `# TYPE` lines. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

export const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")

export const metricHeader = (name: string, type: "counter" | "gauge" | "histogram", help: string) => [
  `# HELP ${name} ${help}`,
  `# TYPE ${name} ${type}`,
]
