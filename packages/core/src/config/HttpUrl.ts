import { Schema } from "effect"

const notUrl = (issue: { readonly actual: unknown }) =>
  `expected an http(s) URL, got ${typeof issue.actual === "string" ? JSON.stringify(issue.actual) : typeof issue.actual}`

/** An absolute http(s) URL, as every URL key of the config takes one (a task app, a model, a job server). */
export const HttpUrl = Schema.String.annotations({ message: notUrl }).pipe(
  Schema.filter((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
    message: notUrl,
    jsonSchema: { format: "uri" },
  }),
)
