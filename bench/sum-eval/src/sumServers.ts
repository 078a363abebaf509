import { join } from "node:path"
import { jsonLine, printed, REPO_ROOT, startProcess } from "@proctor/bench-shared"
import { MODEL_LATENCY_MS } from "./settings.js"

/** The baseline model (answering `latencyMs` late, default `MODEL_LATENCY_MS`) and the sum task app, each a process of its own. */
export const startModelAndApp = async (env: NodeJS.ProcessEnv, latencyMs = MODEL_LATENCY_MS) => {
  const model = await startProcess({
    what: "the baseline model",
    script: join(REPO_ROOT, "examples/baseline-model/dist/main.js"),
    env: { ...env, PORT: "0", BASELINE_LATENCY_MS: String(latencyMs) },
    ready: printed(/listening on (http:\/\/\S+)/),
  })
  const app = await startProcess({
    what: "the sum task app",
    script: new URL("./sumTaskApp.js", import.meta.url).pathname,
    env,
    ready: jsonLine<{ url: string }>(),
  })
  return { model, app }
}
