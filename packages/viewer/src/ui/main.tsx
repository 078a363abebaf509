import { render } from "preact"
import { type EmbeddedHead, type RolloutDetail, rolloutTagId, type ViewerConfig } from "../apiShapes.js"
import { App } from "./App.js"
import "./styles.css"

const readJson = <A,>(id: string): A | null => {
  const text = document.getElementById(id)?.textContent
  return text === undefined || text === null || text === "" ? null : (JSON.parse(text) as A)
}

// Without a config tag (the page opened as built), it reads a local server's API beside it.
const config = readJson<ViewerConfig>("proctor-config") ?? { mode: "local", base: "api" }
const data = config.mode === "embedded" ? readJson<EmbeddedHead>("proctor-data") : null
const transcript = (key: string) => readJson<RolloutDetail>(rolloutTagId(key))
const root = document.getElementById("app")!
// The "Loading…" the page shows while a big report file is parsed; render() would keep it beside the app.
root.replaceChildren()
render(<App config={config} data={data} transcript={transcript} />, root)
