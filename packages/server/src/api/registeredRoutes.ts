import type { FastifyInstance } from "fastify"

export interface RegisteredRoute {
  readonly method: string
  /** In OpenAPI's form: `/api/eval/jobs/{id}`; a wildcard is `{path}`. */
  readonly path: string
}

/**
 * Every route a fastify app serves, read from its router (`printRoutes`' radix tree: a route's path is the
 * fragments from the root down to its node). HEAD routes fastify adds for each GET are left out. The OpenAPI
 * test and the docs' coverage test check that each one is documented.
 */
export const registeredRoutes = (app: FastifyInstance): ReadonlyArray<RegisteredRoute> => {
  const routes: Array<RegisteredRoute> = []
  const fragments: Array<string> = []
  for (const line of app.printRoutes().split("\n")) {
    const node = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (node === null) continue
    const [, indent = "", fragment = "", methods] = node
    const depth = indent.length / 4
    fragments.length = depth
    fragments.push(fragment)
    if (methods === undefined) continue
    const path = fragments
      .join("")
      .replace(/:(\w+)/g, "{$1}")
      .replace(/\*$/, "{path}")
    for (const method of methods.split(", ")) if (method !== "HEAD") routes.push({ method, path })
  }
  return routes
}
