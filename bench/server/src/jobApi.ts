import { benchJobRequest, sleep } from "@proctor/bench-shared"
import { request } from "undici"
import type { ServerProcess } from "./processes.js"
import { JOB_DEADLINE_MS } from "./settings.js"

export interface StatusBody {
  readonly job_id: string
  readonly status: string
  readonly error: string | null
  readonly started_at: string | null
  readonly completed_at: string | null
  readonly results: { readonly completed: number; readonly total: number; readonly mean_score: number | null }
}

export const api = async (server: ServerProcess, key: string, method: "GET" | "POST", path: string, body?: unknown) => {
  const res = await request(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.body.text()
  if (res.statusCode >= 300) throw new Error(`${method} ${path} answered ${res.statusCode}: ${text.slice(0, 500)}`)
  return text
}

export const submitJob = async (
  server: ServerProcess,
  key: string,
  taskAppOrigin: string,
  seeds: number,
  concurrency: number,
  timeoutS = 60,
) => {
  const body = benchJobRequest(taskAppOrigin, seeds, concurrency, timeoutS)
  const { job_id } = JSON.parse(await api(server, key, "POST", "/api/eval/jobs", body)) as { job_id: string }
  return job_id
}

export const getStatus = async (server: ServerProcess, key: string, jobId: string) =>
  JSON.parse(await api(server, key, "GET", `/api/eval/jobs/${jobId}`)) as StatusBody

/** Polls every `everyMs` until the job has ended; `onPoll` sees each answer. */
export const waitForJob = async (
  server: ServerProcess,
  key: string,
  jobId: string,
  everyMs: number,
  onPoll: (status: StatusBody, ms: number) => void = () => {},
) => {
  const deadline = Date.now() + JOB_DEADLINE_MS
  for (;;) {
    const t0 = performance.now()
    const status = await getStatus(server, key, jobId)
    onPoll(status, performance.now() - t0)
    if (status.status !== "pending" && status.status !== "running") {
      if (status.status !== "completed") throw new Error(`job ${jobId} ended ${status.status}: ${status.error}`)
      return status
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not finish in ${JOB_DEADLINE_MS / 60_000} min`)
    await sleep(everyMs)
  }
}
