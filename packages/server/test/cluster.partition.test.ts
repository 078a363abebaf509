import type { ChildProcess } from "node:child_process"
import { createServer, type Server } from "node:http"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { synthJobBody } from "./api.harness.js"
import { type Cluster, killAll, proctorBin, startCluster, waitUntil } from "./cluster.harness.js"
import { withNamespace } from "./netns.js"

const SEEDS = Array.from({ length: 3_000 }, (_, i) => i)
/** The cut-off worker's rollouts are held this long, so it surely has answers on the way when its link goes down. */
const PARTITIONED_ROLLOUT_MS = 1_000
const ROLLOUT_MS = 5
/** Answered only once the test says so: the job is still running when the cut-off worker comes back. */
const LAST_SEED = SEEDS.length - 1

interface Answer {
  readonly seed: number
  readonly from: string
  /** When the task app wrote the answer (epoch ms). */
  readonly sentAt: number
}

/**
 * A synth-ai task app on bare `node:http` that knows whom it answered: every answer is numbered (`details.answer`,
 * stored with the result) and remembered with the caller's address and when it was sent. Answers to `slowFor` are
 * held `PARTITIONED_ROLLOUT_MS`; `LAST_SEED`'s until `release()`.
 */
const startWitnessTaskApp = async (host: string, slowFor: string) => {
  const answers: Array<Answer> = []
  /** Seeds `slowFor` asked for and has no answer to yet. */
  const pendingSlow = new Set<number>()
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/rollout") {
        response.writeHead(200, { "content-type": "application/json" }).end('{"healthy": true, "status": "ok"}')
        return
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { run_id?: string; env?: { seed?: number } }
      const from = request.socket.remoteAddress ?? "?"
      const seed = body.env?.seed ?? -1
      const slow = from === slowFor
      if (slow) pendingSlow.add(seed)
      const answerAfter = (ms: number) =>
        setTimeout(() => {
          if (slow) pendingSlow.delete(seed)
          const answer = answers.push({ seed, from, sentAt: Date.now() }) - 1
          const score = seed % 2
          response.writeHead(200, { "content-type": "application/json" }).end(
            JSON.stringify({
              run_id: body.run_id ?? "",
              trajectories: [],
              metrics: {
                episode_returns: [score],
                mean_return: score,
                num_steps: 1,
                num_episodes: 1,
                outcome_score: score,
                details: { answer },
              },
              aborted: false,
            }),
          )
        }, ms)
      const ms = slow ? PARTITIONED_ROLLOUT_MS : ROLLOUT_MS
      if (seed === LAST_SEED) void released.then(() => answerAfter(ms))
      else answerAfter(ms)
    })
  })
  const port = await new Promise<number>((resolve) =>
    server.listen(0, host, () => resolve((server.address() as { port: number }).port)),
  )
  return {
    port,
    answers,
    pendingSlow,
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

interface StoredRow {
  readonly seed: number
  readonly details?: { readonly answer?: number }
}

const storedRows = async (cluster: Cluster, jobId: string) => {
  const response = await cluster.client().raw(`/api/eval/jobs/${jobId}/results?format=jsonl`)
  return (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as StoredRow)
}

const statusOf = async (cluster: Cluster, jobId: string) => {
  const { body } = await cluster.client().get(`/api/eval/jobs/${jobId}`)
  return { status: body.status as string, completed: (body.results as { completed: number }).completed }
}

const rerunTotal = async (cluster: Cluster) => {
  const metrics = await (await fetch(`${cluster.apis[0]!.url}/metrics`)).text()
  return Number(/^proctor_rollouts_rerun_total (\d+)$/m.exec(metrics)?.[1] ?? Number.NaN)
}

describe("scale-out: a worker cut off from the network mid-rollout (its own network namespace)", () => {
  let cluster: Cluster | null = null
  const inside = new Set<ChildProcess>()
  afterEach(async () => {
    for (const child of inside) child.kill("SIGKILL")
    await cluster?.cleanup()
    cluster = null
    killAll()
  })

  it("every seed exactly once, and its late answers change no result", async () => {
    await withNamespace(async (namespace) => {
      // One URL for every worker: the host's end of the veth is a local address on the host, whatever the link.
      const app = await startWitnessTaskApp(namespace.hostAddress, namespace.namespaceAddress)
      try {
        cluster = await startCluster({ apis: 2, workers: 2, lockSeconds: 3 })
        const [pgPort, redisPort] = await Promise.all([namespace.forward(5432), namespace.forward(6379)])
        const databaseUrl = cluster.databaseUrl.replace("127.0.0.1:5432", `${namespace.hostAddress}:${pgPort}`)
        const redisUrl = cluster.redisUrl.replace("127.0.0.1:6379", `${namespace.hostAddress}:${redisPort}`)
        const partitioned = namespace.exec(
          process.execPath,
          [
            proctorBin,
            "worker",
            ...["--database-url", databaseUrl, "--redis-url", redisUrl, "--redis-prefix", cluster.prefix],
            ...["--concurrency", "16", "--lock-seconds", "3", "--grace-seconds", "60"],
          ],
          { env: { ...process.env, ...cluster.env }, stdio: ["ignore", "pipe", "pipe"] },
        )
        inside.add(partitioned)
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          partitioned.once("exit", (code, signal) => resolve({ code, signal })),
        )
        let output = ""
        partitioned.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
        partitioned.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))

        const created = await cluster
          .client()
          .post(
            "/api/eval/jobs",
            synthJobBody(`http://${namespace.hostAddress}:${app.port}`, SEEDS, { max_concurrent: 64 }),
          )
        expect(created.status).toBe(200)
        const jobId = created.body.job_id as string

        // Mid-rollout: the partitioned worker has had answers and waits for others.
        await waitUntil(`the partitioned worker to be busy (${output})`, async () =>
          app.answers.some((a) => a.from === namespace.namespaceAddress) && app.pendingSlow.size >= 8
            ? true
            : undefined,
        )
        const heldAtCut = [...app.pendingSlow]
        namespace.cut()
        // Taken once the link is down: an answer sent from now on reaches the worker only after it reconnects.
        const cutAt = Date.now()

        // Its rollouts lose their lock and run again on the other workers, which commit them.
        const before = await waitUntil(
          "the cut-off worker's rollouts to be committed by the others",
          async () => {
            const rows = new Map((await storedRows(cluster!, jobId)).map((row) => [row.seed, row]))
            return heldAtCut.every((seed) => rows.has(seed)) ? rows : undefined
          },
          90_000,
          1_000,
        )
        const late = app.answers.filter((a) => a.from === namespace.namespaceAddress && a.sentAt >= cutAt)
        expect(late.length).toBeGreaterThan(0)
        expect((await statusOf(cluster, jobId)).status).toBe("running")
        const rerunBefore = await rerunTotal(cluster)

        const reconnectAt = Date.now()
        namespace.reconnect()
        // The late answers reach the worker while the job still runs; its commits find their rows taken.
        await waitUntil(
          "a late answer of the partitioned worker to be discarded",
          async () => ((await rerunTotal(cluster!)) > rerunBefore ? true : undefined),
          90_000,
        )
        app.release()
        const done = await waitUntil(
          `job ${jobId} to complete`,
          async () => {
            const state = await statusOf(cluster!, jobId)
            return state.status === "completed" ? state : undefined
          },
          90_000,
        )
        expect(done.completed).toBe(SEEDS.length)
        // Drained, the worker has nothing in flight: every late answer it had is dealt with.
        partitioned.kill("SIGTERM")
        expect(await exited, output).toEqual({ code: 0, signal: null })

        const after = await storedRows(cluster, jobId)
        expect(after.map((row) => row.seed)).toEqual(SEEDS)
        // What the others committed for the cut-off worker's rollouts is still what is stored,
        expect(heldAtCut.map((seed) => after.find((row) => row.seed === seed))).toEqual(
          heldAtCut.map((seed) => before.get(seed)),
        )
        // and no stored result is an answer sent to it while it was cut off: those reached it only once it was back,
        // when its leases were long lost and the others had run those rollouts. (What it had before the cut and
        // committed first is a result like any other, and so is new work it took once back.)
        const sentWhileCut = new Set(
          app.answers.flatMap((answer, index) =>
            answer.from === namespace.namespaceAddress && answer.sentAt >= cutAt && answer.sentAt < reconnectAt
              ? [index]
              : [],
          ),
        )
        expect(after.filter((row) => sentWhileCut.has(row.details?.answer ?? -1))).toEqual([])
      } finally {
        await app.close()
      }
    })
  }, 240_000)
})
