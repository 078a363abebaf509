import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Pool } from "undici"
import { directoryEntries, emptyDirectory, firstFileOf, tarOf } from "./bareTar.js"

const MIB = 1024 * 1024

/** What a Harbor task's `task.toml` says that the bare client needs: the container's memory and cpus. */
const limitsOf = (taskDir: string) => {
  const toml = readFileSync(join(taskDir, "task.toml"), "utf8")
  const number = (key: string, fallback: number) =>
    Number(new RegExp(`^${key}\\s*=\\s*([\\d.]+)`, "m").exec(toml)?.[1] ?? fallback)
  return { memoryMb: number("memory_mb", 2048), cpus: number("cpus", 1) }
}

/**
 * The bare client of the 64-task comparison: a Harbor task run with the oracle as a minimal client would, over
 * the Engine API on the unix socket with undici — image by content hash (built once, then found), create and
 * start with proctor's container configuration, the solution (and `/logs/verifier`) in, `solve.sh`, the tests
 * in, `test.sh`, the reward read, the container removed. No labels to prune by beyond one, no output caps, no
 * timeouts, no step records, no journal.
 */
export class BareHarbor {
  private readonly pool = new Pool("http://docker", { socketPath: "/var/run/docker.sock", connections: 64 })
  private readonly builds = new Map<string, Promise<void>>()

  private async request(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: Buffer | string) {
    const response = await this.pool.request({
      method,
      path: `/v1.41${path}`,
      body: body ?? null,
      headers:
        body === undefined
          ? {}
          : { "content-type": typeof body === "string" ? "application/json" : "application/x-tar" },
    })
    return { status: response.statusCode, body: Buffer.from(await response.body.arrayBuffer()) }
  }

  private async call(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<unknown> {
    const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body)
    const response = await this.request(method, path, payload)
    const text = response.body.toString()
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`)
    return text === "" || !text.startsWith("{") ? null : JSON.parse(text)
  }

  /** The task's image, tagged by its environment's content; built the first time it is missing. */
  private async image(taskDir: string): Promise<string> {
    const context = join(taskDir, "environment")
    const hash = createHash("sha256")
    for (const name of readdirSync(context).sort()) hash.update(`${name}\0`).update(readFileSync(join(context, name)))
    const tag = `proctor-bench-bare:${hash.digest("hex").slice(0, 20)}`
    const found = await this.request("GET", `/images/${encodeURIComponent(tag)}/json`)
    if (found.status === 200) return tag
    let pending = this.builds.get(tag)
    if (pending === undefined) {
      pending = this.request(
        "POST",
        `/build?t=${encodeURIComponent(tag)}&networkmode=none`,
        tarOf(directoryEntries(context, ".")),
      ).then((built) => {
        if (built.status >= 300 || built.body.toString().includes('"error"')) throw new Error(built.body.toString())
      })
      this.builds.set(tag, pending)
    }
    await pending
    return tag
  }

  private async exec(id: string, line: string): Promise<number> {
    const { Id } = (await this.call("POST", `/containers/${id}/exec`, {
      AttachStdout: true,
      AttachStderr: true,
      Cmd: ["sh", "-c", line],
    })) as { Id: string }
    await this.request("POST", `/exec/${Id}/start`, JSON.stringify({ Detach: false, Tty: false }))
    return ((await this.call("GET", `/exec/${Id}/json`)) as { ExitCode: number }).ExitCode
  }

  private async readFile(id: string, path: string): Promise<string | null> {
    const response = await this.request("GET", `/containers/${id}/archive?path=${encodeURIComponent(path)}`)
    if (response.status === 404) return null
    if (response.status >= 300) throw new Error(`reading ${path}: ${response.status} ${response.body.toString()}`)
    return firstFileOf(response.body)?.toString() ?? null
  }

  /** One task with the oracle: its reward. */
  async runTask(taskDir: string): Promise<number> {
    const image = await this.image(taskDir)
    const limits = limitsOf(taskDir)
    const { Id: id } = (await this.call("POST", "/containers/create", {
      Image: image,
      Entrypoint: ["sleep"],
      Cmd: ["infinity"],
      WorkingDir: "/app",
      Env: [],
      Labels: { "proctor.bench": "bare" },
      HostConfig: {
        NetworkMode: "none",
        Init: true,
        Memory: limits.memoryMb * MIB,
        MemorySwap: limits.memoryMb * MIB,
        PidsLimit: 1024,
        NanoCpus: Math.round(limits.cpus * 1e9),
      },
    })) as { Id: string }
    try {
      await this.call("POST", `/containers/${id}/start`)
      const solution = tarOf([
        emptyDirectory("logs"),
        emptyDirectory("logs/verifier"),
        ...directoryEntries(join(taskDir, "solution"), "solution"),
      ])
      await this.call("PUT", `/containers/${id}/archive?path=/`, solution)
      await this.exec(id, "cd /app && sh /solution/solve.sh")
      await this.call(
        "PUT",
        `/containers/${id}/archive?path=/`,
        tarOf(directoryEntries(join(taskDir, "tests"), "tests")),
      )
      await this.exec(id, "cd /app && sh /tests/test.sh")
      const text = await this.readFile(id, "/logs/verifier/reward.txt")
      if (text !== null) return Number(text.trim())
      const json = await this.readFile(id, "/logs/verifier/reward.json")
      return json === null ? Number.NaN : Number((JSON.parse(json) as { reward: unknown }).reward)
    } finally {
      await this.call("DELETE", `/containers/${id}?force=1&v=1`)
    }
  }

  /** Every task at `concurrency`: their rewards in task order. */
  async runAll(taskDirs: ReadonlyArray<string>, concurrency: number): Promise<Array<number>> {
    const rewards: Array<number> = new Array(taskDirs.length)
    let next = 0
    const worker = async () => {
      while (next < taskDirs.length) {
        const i = next++
        rewards[i] = await this.runTask(taskDirs[i] as string)
      }
    }
    await Promise.all(Array.from({ length: Math.min(concurrency, taskDirs.length) }, worker))
    return rewards
  }

  close(): Promise<void> {
    return this.pool.close()
  }
}
