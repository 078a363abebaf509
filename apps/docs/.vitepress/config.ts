import { existsSync, readFileSync } from "node:fs"
import { type DefaultTheme, defineConfig } from "vitepress"
import { slug } from "../src/markdown.js"

/** TypeDoc's sidebar for the library API, written by the generator (src/generate.ts) before each build. */
const apiSidebar = (): DefaultTheme.SidebarItem[] => {
  const file = new URL("../pages/reference/api/typedoc-sidebar.json", import.meta.url)
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as DefaultTheme.SidebarItem[]) : []
}

const guides: DefaultTheme.SidebarItem[] = [
  { text: "Quick start", link: "/guide/quick-start" },
  { text: "Concepts", link: "/guide/concepts" },
  { text: "Write a task app (TypeScript)", link: "/guide/task-app-typescript" },
  { text: "Write a task app (Python, synth-ai)", link: "/guide/task-app-python" },
  { text: "Evaluate without writing code", link: "/guide/datasets" },
  { text: "Compare many: grid runs", link: "/guide/grid" },
  { text: "In-process evals: evaluate()", link: "/guide/evaluate" },
  { text: "How far to trust your judge", link: "/guide/judges" },
  { text: "Evaluate an agent in a sandbox", link: "/guide/agents" },
  { text: "Evaluate a model", link: "/guide/models" },
  { text: "Pay less: cache and budgets", link: "/guide/cache-and-budgets" },
  { text: "CI", link: "/guide/ci" },
  { text: "Viewer and reports", link: "/guide/viewer" },
  { text: "Traces in your own tools (OpenTelemetry)", link: "/guide/opentelemetry" },
  { text: "Run a team server", link: "/guide/team-server" },
  { text: "Scale out", link: "/guide/scale-out" },
  { text: "Migrate from synth-ai eval", link: "/guide/migrate-synth-ai" },
  { text: "Migrate from promptfoo", link: "/guide/migrate-promptfoo" },
  { text: "Migrate from OpenAI Evals", link: "/guide/migrate-openai-evals" },
]

const references: DefaultTheme.SidebarItem[] = [
  { text: "Config keys", link: "/reference/config" },
  { text: "CLI", link: "/reference/cli" },
  { text: "Graders", link: "/reference/graders" },
  { text: "HTTP API", link: "/reference/http-api" },
  { text: "Error kinds", link: "/reference/error-kinds" },
  { text: "Exit codes", link: "/reference/exit-codes" },
  { text: "Pricing", link: "/reference/pricing" },
  { text: "Providers", link: "/reference/providers" },
  { text: "Packages", link: "/reference/architecture" },
  { text: "Library API", link: "/reference/api/", collapsed: true, items: apiSidebar() },
]

export default defineConfig({
  title: "proctor",
  description: "Evaluate LLM agents and policies on task apps: fast, durable, traced and priced.",
  srcDir: "pages",
  lang: "en",
  head: [["link", { rel: "icon", type: "image/svg+xml", href: "/favicon.svg" }]],
  lastUpdated: false,
  // The generated references link to their own sections, so they and the site must slug headings alike.
  // `{path}` at the end of a heading is an API path, not markdown-it-attrs' attribute syntax.
  markdown: { anchor: { slugify: slug }, attrs: { disable: true } },
  // A dead internal link fails the build; the link check (test/links.test.ts) adds anchors.
  ignoreDeadLinks: false,
  themeConfig: {
    nav: [
      { text: "Guide", link: "/guide/quick-start" },
      { text: "Reference", link: "/reference/config" },
    ],
    sidebar: [
      { text: "Guides", items: guides },
      { text: "Reference", items: references },
    ],
    search: { provider: "local" },
    outline: { level: [2, 3] },
  },
})
