import { useEffect, useState } from "preact/hooks"
import { fixed, integer } from "./format.js"
import { followEvents } from "./sse.js"

/** The job server's key lives in this tab's sessionStorage only: never in a URL, a cookie or a log. */
const KEY_SLOT = "proctor-api-key"

export const storedKey = (): string | null => sessionStorage.getItem(KEY_SLOT)
export const storeKey = (key: string): void => sessionStorage.setItem(KEY_SLOT, key)
export const forgetKey = (): void => sessionStorage.removeItem(KEY_SLOT)

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, accept: "application/json" })

interface JobResults {
  readonly mean_score: number | null
  readonly completed: number
  readonly total: number
}

interface Job {
  readonly job_id: string
  readonly status: string
  readonly created_at: string | null
  readonly error: string | null
  readonly config: Record<string, unknown> | null
  readonly results: JobResults
}

/** The job API beside the viewer's data API: `{base}/eval/jobs` (base `api` → `/api/eval/jobs`). */
export const jobsPath = (base: string): string => `${base.replace(/\/+$/, "")}/eval/jobs`

/** Where one job's viewer data API is (section 3 of the contract, under the job). */
export const jobViewBase = (base: string, jobId: string): string =>
  `${jobsPath(base)}/${encodeURIComponent(jobId)}/view`
const ENDED = new Set(["completed", "failed", "cancelled"])

/** Asks the server whether a key is valid: the job list answers 401 to a bad one. */
const checkKey = async (base: string, key: string): Promise<string | null> => {
  const response = await fetch(`${jobsPath(base)}?limit=1`, { headers: bearer(key) })
  if (response.ok) return null
  return response.status === 401 ? "This API key was not accepted." : `The server answered HTTP ${response.status}.`
}

export const SignIn = ({ base, onSignedIn }: { base: string; onSignedIn: (key: string) => void }) => {
  const [key, setKey] = useState("")
  const [problem, setProblem] = useState<string | null>(null)
  const submit = async (event: Event) => {
    event.preventDefault()
    const trimmed = key.trim()
    if (trimmed === "") return setProblem("Enter an API key.")
    const refused = await checkKey(base, trimmed).catch(() => "The server cannot be reached.")
    if (refused !== null) return setProblem(refused)
    storeKey(trimmed)
    setKey("")
    onSignedIn(trimmed)
  }
  return (
    <form class="sign-in" aria-label="sign in" onSubmit={(event) => void submit(event)}>
      <h2>Sign in</h2>
      <p class="muted">Your API key stays in this browser tab (sessionStorage) and is sent only as a Bearer header.</p>
      <label>
        API key
        <input
          data-testid="signin-key"
          type="password"
          autocomplete="off"
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
        />
      </label>
      <button type="submit" data-testid="signin-submit">
        Sign in
      </button>
      {problem === null ? null : (
        <p class="bad" role="alert" data-testid="signin-error">
          {problem}
        </p>
      )}
    </form>
  )
}

/** Applies a job event's counters (`job.status`, `seed.completed`, …: `data.completed`, `data.total`, `data.mean_score`). */
const withEvent = (job: Job, data: Record<string, unknown>): Job => ({
  ...job,
  status: typeof data.status === "string" ? data.status : job.status,
  results: {
    completed: typeof data.completed === "number" ? data.completed : job.results.completed,
    total: typeof data.total === "number" ? data.total : job.results.total,
    mean_score: typeof data.mean_score === "number" ? data.mean_score : job.results.mean_score,
  },
})

export interface JobListProps {
  readonly base: string
  readonly apiKey: string
  readonly onSignedOut: () => void
  readonly jobHref: (id: string) => string
}

export const JobList = ({ base, apiKey, onSignedOut, jobHref }: JobListProps) => {
  const [jobs, setJobs] = useState<ReadonlyArray<Job> | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => {
    fetch(`${jobsPath(base)}?limit=100`, { headers: bearer(apiKey) })
      .then(async (response) => {
        if (response.status === 401) return onSignedOut()
        if (!response.ok) return setProblem(`The job list failed: HTTP ${response.status}.`)
        setJobs(((await response.json()) as { jobs: ReadonlyArray<Job> }).jobs)
      })
      .catch(() => setProblem("The server cannot be reached."))
  }, [apiKey])
  const running = jobs?.filter((job) => !ENDED.has(job.status)).map((job) => job.job_id) ?? []
  useEffect(() => {
    const stops = running.map((id) =>
      followEvents(
        `${jobsPath(base)}/${encodeURIComponent(id)}/events/stream`,
        { authorization: `Bearer ${apiKey}` },
        (event) => {
          try {
            const data = (JSON.parse(event.data) as { data?: Record<string, unknown> }).data ?? {}
            setJobs((all) => all?.map((job) => (job.job_id === id ? withEvent(job, data) : job)) ?? null)
          } catch {
            // The next event carries the same counters.
          }
        },
      ),
    )
    return () => {
      for (const stop of stops) stop()
    }
  }, [apiKey, running.join(",")])
  if (problem !== null) return <p class="bad">{problem}</p>
  if (jobs === null) return <p class="muted">Loading jobs…</p>
  return (
    <section aria-label="jobs">
      <h2>Jobs</h2>
      {jobs.length === 0 ? (
        <p class="empty">No jobs yet.</p>
      ) : (
        <table class="jobs" data-testid="jobs">
          <thead>
            <tr>
              <th>job</th>
              <th>status</th>
              <th>app</th>
              <th>model</th>
              <th>created</th>
              <th>progress</th>
              <th>mean score</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.job_id} data-testid="job-row" data-job-id={job.job_id}>
                <td>
                  <a href={jobHref(job.job_id)}>{job.job_id}</a>
                </td>
                <td data-testid="job-status">{job.status}</td>
                <td>{String(job.config?.app_id ?? job.config?.env_name ?? "")}</td>
                <td>
                  {String(
                    (job.config?.policy as Record<string, unknown> | undefined)?.model ?? job.config?.model ?? "",
                  )}
                </td>
                <td>{job.created_at ?? ""}</td>
                <td data-testid="job-progress">
                  <progress
                    max={job.results.total}
                    value={job.results.completed}
                    aria-label={`job ${job.job_id} progress`}
                  />{" "}
                  {integer(job.results.completed)} / {integer(job.results.total)}
                </td>
                <td>{fixed(job.results.mean_score)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
