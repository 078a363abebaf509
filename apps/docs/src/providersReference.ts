import { PROVIDERS } from "@proctor/core"
import { code, page, table } from "./markdown.js"

/** The providers reference: the names `--provider` and `provider` take, their base URLs and key variables. */
export const providersReference = (): string =>
  page({
    title: "Providers",
    source: "packages/core/src/interceptor/ModelEndpoint.ts (PROVIDERS)",
    body: [
      "`--provider NAME` (or `provider` in the config) makes a provider's base URL the policy's model endpoint when",
      "no `inference_url` is given; the provider's key variable is sent only to it ([keys](../guide/models#keys)).",
      "`openai` honours `OPENAI_BASE_URL`.",
      "",
      table(
        ["Provider", "Base URL", "Key variable"],
        Object.entries(PROVIDERS).map(([name, provider]) => [
          code(name),
          code(provider.baseUrl),
          code(provider.keyVariable),
        ]),
      ),
    ].join("\n"),
  })
