import { Liquid } from "liquidjs"

/**
 * Templates over a test's variables at the top level (`{{ question }}`), as promptfoo's prompts and assertion values
 * and OpenAI's `{{ item.x }}` / `{{ sample.output_text }}` are written. Rendered with liquidjs, proctor's template
 * engine: `{{ x }}`, `{% if %}`, `{% for %}` and the common filters read the same as in nunjucks or Jinja. Strict, so
 * a variable a test lacks, or a filter or nunjucks-only name liquidjs does not know, is an error that names it
 * instead of an empty string in the prompt.
 */
let liquid: Liquid | undefined
/** Made by the first template, not when this module loads (every `proctor eval` loads it): see ItemTemplate's engine. */
const engine = (): Liquid => {
  liquid ??= new Liquid({ strictVariables: true, strictFilters: true, ownPropertyOnly: true, cache: false })
  return liquid
}

/** Fills in a template; throws an Error whose message says what the template or the variables lack. */
export const renderVars = (source: string, vars: Readonly<Record<string, unknown>>): string => {
  if (!source.includes("{")) return source
  try {
    return engine().parseAndRenderSync(source, vars)
  } catch (error) {
    throw new Error(((error as Error).message.split("\n")[0] ?? "").replace(/, line:\d+, col:\d+$/, ""))
  }
}
