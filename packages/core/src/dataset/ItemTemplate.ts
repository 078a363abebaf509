import { Liquid, type Template } from "liquidjs"

/**
 * Templates over a dataset row, `{{ item.question }}`, in Liquid (liquidjs: kept up, no dependencies of its own at run
 * time, sync rendering, and a sandbox: a template reads the row's own fields and calls filters, never arbitrary
 * code, as nunjucks' `{{ item.constructor }}` tricks could). `strictVariables` makes a missing column an error
 * rather than an empty string in the prompt.
 */
let liquid: Liquid | undefined
/**
 * The engine, made by the first template rather than when this module loads: every `proctor eval` loads the module,
 * and a Liquid instance reads the host's locale through Intl, which loads ICU's data (with ajv's instance, ~6% of
 * the eval script's load and 7 MB of its RSS).
 */
const engine = (): Liquid => {
  liquid ??= new Liquid({ strictVariables: true, ownPropertyOnly: true, cache: false })
  return liquid
}

const UNDEFINED_VARIABLE = /undefined variable: ([^,]+)/

/** A template that does not parse, or a row it cannot be filled from (the column it names is not in the row). */
export class TemplateProblem extends Error {
  constructor(
    message: string,
    /** The column a row lacks (`item.question` → `question`), when that is the problem. */
    readonly column: string | undefined,
  ) {
    super(message)
  }
}

export interface ItemTemplate {
  readonly source: string
  /** The text for a row; throws a `TemplateProblem` when the row lacks a column the template names. */
  readonly render: (item: Readonly<Record<string, unknown>>) => string
}

/** Compiles a template once; throws a `TemplateProblem` when it does not parse. */
export const compileItemTemplate = (source: string): ItemTemplate => {
  let parsed: Array<Template>
  try {
    parsed = engine().parse(source)
  } catch (error) {
    throw new TemplateProblem(`does not parse: ${(error as Error).message.split("\n")[0]}`, undefined)
  }
  // Plain text needs no engine: most references and patterns are constants or one `{{ item.x }}`.
  if (!source.includes("{")) return { source, render: () => source }
  return {
    source,
    render: (item) => {
      try {
        return engine().renderSync(parsed, { item })
      } catch (error) {
        const message = (error as Error).message
        const variable = UNDEFINED_VARIABLE.exec(message)?.[1]?.trim()
        if (variable === undefined) throw new TemplateProblem(message.split("\n")[0] ?? message, undefined)
        const column = variable.startsWith("item.") ? variable.slice("item.".length).split(/[.[]/)[0] : undefined
        throw new TemplateProblem(
          column === undefined
            ? `names ${variable}, which is not defined (use item.<column>)`
            : `no column "${column}"`,
          column,
        )
      }
    },
  }
}
