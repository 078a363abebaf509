import { type Figures, fillTemplate, invokedAs, readTemplates } from "@proctor/bench-shared"

const templates = readTemplates(new URL("../templates/", import.meta.url), [
  "section",
  "bare-first",
  "big-job",
  "stream-once",
  "stream-times",
  "against-cli",
  "others",
])

/**
 * The figures of the section, formatted, by the placeholder of bench/server/templates that shows each; a
 * placeholder without its figure, or a figure without its place, throws (see `fillTemplate`).
 */
export interface ServerFigures {
  readonly invokedWith: string
  /** section.md's figures but `invoked_as`. */
  readonly throughput: Figures
  /** big-job.md's figures but `stream_count`, and how many times the results were streamed. */
  readonly bigJob: { readonly figures: Figures; readonly streams: number } | null
  readonly againstCli: Figures | null
  /** The most cores other processes used, when above 0.1. */
  readonly maxOthers: string | null
}

/** A round's label in the throughput table: its number, and whether the bare route ran first. */
export const roundLabel = (index: number, serverFirst: boolean): string =>
  `${index + 1}${serverFirst ? "" : templates["bare-first"]}`

/** bench/RESULTS.md's server section: the prose is bench/server/templates/*.md. */
export const sectionText = (f: ServerFigures): string => {
  const big = f.bigJob
  const parts = [
    fillTemplate(templates.section, { ...f.throughput, invoked_as: invokedAs("server", f.invokedWith) }),
    ...(big === null
      ? []
      : [
          fillTemplate(templates["big-job"], {
            ...big.figures,
            streams: big.streams,
            stream_count:
              big.streams === 1
                ? templates["stream-once"]
                : fillTemplate(templates["stream-times"], { streams: big.streams }),
          }),
        ]),
    ...(f.againstCli === null ? [] : [fillTemplate(templates["against-cli"], f.againstCli)]),
    ...(f.maxOthers === null ? [] : [fillTemplate(templates.others, { max_others: f.maxOthers })]),
  ]
  return `${parts.join("\n\n")}\n`
}
