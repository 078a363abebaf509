import { useMemo, useState } from "preact/hooks"
import type { EmbeddedHead, RolloutDetail, ViewerConfig } from "../apiShapes.js"
import { forgetKey, JobList, jobViewBase, SignIn, storedKey } from "./JobList.js"
import { RunViews } from "./RunViews.js"
import { href, useRoute } from "./router.js"
import { embeddedSource, httpSource } from "./source.js"

const ServerApp = ({ base }: { base: string }) => {
  const route = useRoute()
  const [apiKey, setApiKey] = useState(storedKey)
  const signOut = () => {
    forgetKey()
    setApiKey(null)
  }
  const source = useMemo(
    () => (apiKey === null || route.job === null ? null : httpSource("server", jobViewBase(base, route.job), apiKey)),
    [apiKey, route.job],
  )
  if (apiKey === null) return <SignIn base={base} onSignedIn={setApiKey} />
  return (
    <>
      <nav class="tabs" aria-label="server">
        <a href="#/jobs" aria-current={route.job === null ? "page" : undefined} data-testid="tab-jobs">
          Jobs
        </a>
        {route.job === null ? null : <span class="job-id">job {route.job}</span>}
        <button type="button" class="sign-out" data-testid="sign-out" onClick={signOut}>
          Sign out
        </button>
      </nav>
      {source === null ? (
        <JobList base={base} apiKey={apiKey} onSignedOut={signOut} jobHref={(id) => href({ job: id }, "/")} />
      ) : (
        <RunViews key={route.job} source={source} route={route} onSignInRequired={signOut} />
      )}
    </>
  )
}

interface AppProps {
  readonly config: ViewerConfig
  /** A report file's data (mode `embedded`), and how to read one of its transcripts. */
  readonly data: EmbeddedHead | null
  readonly transcript: (key: string) => RolloutDetail | null
}

const DataApp = ({ config, data, transcript }: AppProps) => {
  const route = useRoute()
  const source = useMemo(
    () =>
      data !== null
        ? embeddedSource(data, transcript)
        : httpSource(config.mode, config.base, null, config.grid === true),
    [],
  )
  return <RunViews source={source} route={route} />
}

export const App = ({ config, data, transcript }: AppProps) => (
  <>
    <header class="top">
      <h1>
        <a class="home" href="#/">
          proctor
        </a>
      </h1>
      <span class="mode">
        {config.mode === "embedded" ? "report" : config.mode === "server" ? "job server" : "viewer"}
      </span>
    </header>
    <main>
      {config.mode === "server" ? (
        <ServerApp base={config.base} />
      ) : (
        <DataApp config={config} data={data} transcript={transcript} />
      )}
    </main>
  </>
)
