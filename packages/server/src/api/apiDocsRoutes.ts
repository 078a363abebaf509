import type { FastifyInstance } from "fastify"

/** Where the job server serves its API reference, rendered from `/api/openapi.json`. */
export const API_DOCS_PATH = "/docs"

/**
 * A page of the server's own, not a bundled Swagger UI: swagger-ui-dist weighed 12 MB installed and pulled in
 * @scarf/scarf, whose install script reports each install to a third party. This one renders the OpenAPI
 * document the server serves (operations, parameters, bodies, responses, schemas) in ~100 lines, offline,
 * with nothing fetched from elsewhere.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>proctor eval job API</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem 2rem; color: #1f2328 }
code, pre { font-family: ui-monospace, monospace; font-size: 13px }
.operation, .schema { border: 1px solid #d0d7de; border-radius: 6px; padding: 0 1rem; margin: 1rem 0 }
.method { display: inline-block; min-width: 4.5rem; font-weight: 600; color: #0969da }
table { border-collapse: collapse; margin: .5rem 0 } td, th { border: 1px solid #d0d7de; padding: .2rem .5rem; text-align: left; vertical-align: top }
</style>
</head>
<body>
<main id="reference"><p>Loading <a href="/api/openapi.json">/api/openapi.json</a>…</p></main>
<script src="${API_DOCS_PATH}/reference.js"></script>
</body>
</html>
`

const SCRIPT = `"use strict";
const esc = (value) => String(value ?? "").replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
const refName = (ref) => ref.slice(ref.lastIndexOf("/") + 1);
const typeOf = (schema) => {
  if (schema === undefined || schema === null) return "";
  if (schema.$ref) return '<a href="#schema-' + esc(refName(schema.$ref)) + '">' + esc(refName(schema.$ref)) + "</a>";
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map(typeOf).join(" | ");
  if (schema.enum) return schema.enum.map((value) => esc(JSON.stringify(value))).join(" | ");
  if (schema.type === "array") return typeOf(schema.items) + "[]";
  return esc(Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type ?? "any");
};
const table = (head, rows) => rows.length === 0 ? "" :
  "<table><tr>" + head.map((h) => "<th>" + h + "</th>").join("") + "</tr>" +
  rows.map((row) => "<tr>" + row.map((cell) => "<td>" + cell + "</td>").join("") + "</tr>").join("") + "</table>";
const fields = (schema) => table(["Field", "Type", "Required", "Meaning"],
  Object.entries(schema.properties ?? {}).map(([name, property]) => [
    "<code>" + esc(name) + "</code>", typeOf(property), (schema.required ?? []).includes(name) ? "yes" : "",
    esc(property.description)]));
const content = (body) => Object.entries(body?.content ?? {}).map(([type, media]) =>
  "<code>" + esc(type) + "</code> " + typeOf(media.schema)).join("<br>");
const operation = (method, path, op) =>
  '<section class="operation" id="' + esc(method + " " + path) + '"><h3><span class="method">' + esc(method.toUpperCase()) +
  '</span> <code class="path">' + esc(path) + "</code></h3><p>" + esc(op.summary) + "</p>" +
  (op.description ? "<p>" + esc(op.description) + "</p>" : "") +
  table(["Parameter", "In", "Type", "Required", "Meaning"], (op.parameters ?? []).map((p) =>
    ["<code>" + esc(p.name) + "</code>", esc(p.in), typeOf(p.schema), p.required ? "yes" : "", esc(p.description)])) +
  (op.requestBody ? "<p>Body: " + content(op.requestBody) + "</p>" : "") +
  table(["Status", "Meaning", "Body"], Object.entries(op.responses ?? {}).map(([status, response]) =>
    [esc(status), esc(response.description), content(response)])) + "</section>";
const render = (doc) => {
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => operation(method, path, op)));
  const schemas = Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) =>
    '<section class="schema" id="schema-' + esc(name) + '"><h3>' + esc(name) + "</h3>" +
    (schema.description ? "<p>" + esc(schema.description) + "</p>" : "") + (fields(schema) || "<p>" + typeOf(schema) + "</p>") + "</section>");
  document.getElementById("reference").innerHTML =
    "<h1>" + esc(doc.info?.title) + " <small>" + esc(doc.info?.version) + "</small></h1><p>" + esc(doc.info?.description) +
    '</p><p>The document itself: <a href="/api/openapi.json">/api/openapi.json</a></p><h2>Operations</h2>' +
    operations.join("") + (schemas.length > 0 ? "<h2>Schemas</h2>" + schemas.join("") : "");
};
fetch("/api/openapi.json").then((response) => response.json()).then(render, (error) => {
  document.getElementById("reference").textContent = "cannot load /api/openapi.json: " + error;
});
`

/** `GET /docs`: the API reference, rendered in the browser from the server's own OpenAPI document. */
export const registerApiDocsRoutes = (app: FastifyInstance) => {
  app.get(API_DOCS_PATH, async (_request, reply) => reply.type("text/html; charset=utf-8").send(PAGE))
  app.get(`${API_DOCS_PATH}/reference.js`, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").header("cache-control", "public, max-age=86400").send(SCRIPT),
  )
}
