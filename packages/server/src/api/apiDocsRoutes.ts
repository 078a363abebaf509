import { createReadStream } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import type { FastifyInstance } from "fastify"

/** Where the job server serves its API reference, rendered from `/api/openapi.json`. */
export const API_DOCS_PATH = "/docs"

/**
 * Swagger UI's prebuilt browser bundle (swagger-ui-dist), served from this server so the reference works
 * offline: no CDN, nothing fetched from elsewhere. Resolved from the package that runs (the CLI's bundle or this
 * package), each of which depends on swagger-ui-dist.
 */
const assetDir = () => dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"))

const ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>proctor eval job API</title>
<link rel="stylesheet" href="${API_DOCS_PATH}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${API_DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_DOCS_PATH}/init.js"></script>
</body>
</html>
`

// validatorUrl: null, or Swagger UI sends the document to an online validator for its badge.
const INIT = `window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
})
`

/** `GET /docs`: the API reference, rendered in the browser from the server's own OpenAPI document. */
export const registerApiDocsRoutes = (app: FastifyInstance) => {
  const dir = assetDir()
  app.get(API_DOCS_PATH, async (_request, reply) => reply.type("text/html; charset=utf-8").send(PAGE))
  app.get(`${API_DOCS_PATH}/init.js`, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").send(INIT),
  )
  for (const [file, type] of Object.entries(ASSETS)) {
    app.get(`${API_DOCS_PATH}/${file}`, async (_request, reply) =>
      reply
        .type(type)
        .header("cache-control", "public, max-age=86400")
        .send(createReadStream(join(dir, file))),
    )
  }
}
