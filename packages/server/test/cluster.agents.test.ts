import { execFileSync, spawn } from "node:child_process"
import { hostname } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { type Cluster, killAll, proctorBin, spawned, startCluster, waitUntil } from "./cluster.harness.js"

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
const TASKS = join(repoRoot, "examples/tasks")
const TASK_IDS = ["find-the-secret", "hello-file", "memory-hog", "reverse-words", "sum-numbers"]
const ATTEMPTS = 4
/** Five processes, the tasks' images built by each worker, 20 oracle rollouts in containers, a kill and its recovery. */
const TEST_TIMEOUT = 240_000

/** Docker containers carrying `label` (all states): what the job left on this machine's daemon. */
const containersLabelled = (label: string) =>
  execFileSync("docker", ["ps", "-aq", "--filter", `label=${label}`], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)

/** The `proctor.owner` labels (worker ids) of the job's running containers. */
const containerOwners = (jobId: string) =>
  execFileSync("docker", ["ps", "--filter", `label=proctor.run=${jobId}`, "--format", '{{.Label "proctor.owner"}}'], {
    encoding: "utf8",
  })
    .split("\n")
    .filter(Boolean)

/** `proctor eval --tasks … --agent oracle --backend URL`, run as a user runs it; resolves when the CLI exits. */
const evalOnCluster = (cluster: Cluster) => {
  const child = spawn(
    process.execPath,
    [
      proctorBin,
      "eval",
      "--tasks",
      TASKS,
      "--agent",
      "oracle",
      "--sandbox",
      "docker",
      "--attempts",
      String(ATTEMPTS),
      "--concurrency",
      "6",
      "--backend",
      cluster.apis[1]!.url,
    ],
    { env: { ...process.env, PROCTOR_API_KEY: cluster.key }, stdio: ["ignore", "pipe", "pipe"] },
  )
  spawned.add(child)
  let output = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk
  })
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return { exited, output: () => output }
}

describe("agent jobs on a cluster: 2 API replicas, 3 workers, Docker sandboxes", () => {
  let cluster: Cluster | null = null
  afterEach(async () => {
    await cluster?.cleanup()
    cluster = null
    killAll()
    // The orphans the test planted: one, of another cluster, is meant to outlive the cluster.
    const planted = containersLabelled(`proctor.owner=${hostname()}-0-gone`)
    if (planted.length > 0) execFileSync("docker", ["rm", "-f", ...planted])
  })

  it("oracle over the example tasks, a worker killed with SIGKILL mid-job: every key once, no container left", {
    timeout: TEST_TIMEOUT,
  }, async () => {
    cluster = await startCluster({ apis: 2, workers: 3, workerConcurrency: 2, lockSeconds: 3 })
    const run = evalOnCluster(cluster)
    const jobId = await waitUntil("the job submitted", async () => /submitted job (\S+)/.exec(run.output())?.[1])

    // The victim is a worker caught with a sandbox open: its containers are labelled with its id (host-pid-…).
    const victim = await waitUntil(
      "a worker running a rollout in a container",
      async () => {
        const owners = containerOwners(jobId)
        return cluster!.workers.find((worker) =>
          owners.some((owner) => owner.startsWith(`${hostname()}-${worker.child.pid}-`)),
        )
      },
      120_000,
      100,
    )
    victim.child.kill("SIGKILL")
    expect((await victim.exited).signal).toBe("SIGKILL")
    // The victim may have been removing its last container when killed (Docker finishes a removal it was asked
    // for), so the orphan the live workers must find is also planted: a container of the job's image, labelled
    // as a sandbox of a worker of this cluster that is gone.
    const [image, group] = execFileSync(
      "docker",
      ["ps", "-a", "--filter", `label=proctor.run=${jobId}`, "--format", '{{.Image}} {{.Label "proctor.owner_group"}}'],
      { encoding: "utf8" },
    )
      .split("\n")[0]!
      .split(" ")
    expect(group).toContain(cluster.prefix)
    const plantOrphan = (runId: string, ownerGroup: string) =>
      execFileSync("docker", [
        "create",
        ...["--label", "proctor.sandbox=1", "--label", `proctor.run=${runId}`],
        ...["--label", `proctor.owner=${hostname()}-0-gone`, "--label", `proctor.owner_group=${ownerGroup}`],
        ...["--network", "none", image!],
      ])
    plantOrphan(jobId, group!)
    // A gone worker's sandbox of another cluster sharing the daemon: not this cluster's workers' to remove.
    const otherRun = `other-cluster-${jobId}`
    plantOrphan(otherRun, `${group}-other`)

    expect(await run.exited, run.output()).toBe(0)
    const { body } = await cluster.client().get(`/api/eval/jobs/${jobId}/results`)
    const rows = body.results as ReadonlyArray<{ seed: number; attempt: number; score: number; task_id: string }>
    // Every (seed, attempt) exactly once, each the oracle's full score, named by its task.
    const keys = rows.map((row) => `${row.seed}/${row.attempt}`).sort()
    const expected = TASK_IDS.flatMap((_, seed) =>
      Array.from({ length: ATTEMPTS }, (_, attempt) => `${seed}/${attempt}`),
    ).sort()
    expect(keys).toEqual(expected)
    expect(rows.every((row) => row.score === 1)).toBe(true)
    expect(new Set(rows.map((row) => row.task_id))).toEqual(new Set(TASK_IDS))

    // The killed worker's containers outlived it; the live workers remove them once it has missed its beats.
    await waitUntil(
      "no container left with the job's label",
      async () => (containersLabelled(`proctor.run=${jobId}`).length === 0 ? true : undefined),
      60_000,
      1_000,
    )
    // Removed by a live worker, which says so (its line may arrive just after the container list emptied).
    await waitUntil("a live worker saying it removed the orphans", async () =>
      cluster!.workers.some((worker) => /removed \d+ sandbox\(es\) left by workers that are gone/.test(worker.output()))
        ? true
        : undefined,
    )
    // Those workers have pruned since, and left the other cluster's sandbox alone.
    expect(containersLabelled(`proctor.run=${otherRun}`)).toHaveLength(1)
  })

  it("a job whose tasks are not on the workers' machines fails with the line that says so", {
    timeout: TEST_TIMEOUT,
  }, async () => {
    cluster = await startCluster({ apis: 1, workers: 1 })
    const missing = join(TASKS, "no-such-dir")
    const created = await cluster.client().post("/api/eval/jobs", { tasks: missing, agent: "oracle", seeds: [0, 1] })
    expect(created.status).toBe(200)
    const jobId = created.body.job_id as string
    const ended = await waitUntil("the job failed", async () => {
      const { body } = await cluster!.client().get(`/api/eval/jobs/${jobId}`)
      return body.status === "failed" ? body : undefined
    })
    expect(ended.error).toMatch(/^worker \S+: .*no-such-dir/)
  })
})
