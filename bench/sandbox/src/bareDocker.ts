import { Pool } from "undici"

/**
 * The bare client proctor's Docker runtime is set beside: the same Engine API calls over the same unix socket with
 * undici, and nothing else — no labels to prune by, no image check, no output caps, no timeouts, no error
 * classification, no Effect.
 */
export class BareDocker {
  private readonly pool = new Pool("http://docker", { socketPath: "/var/run/docker.sock", connections: 64 })

  private async call(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<unknown> {
    const response = await this.pool.request({
      method,
      path: `/v1.41${path}`,
      body: body === undefined ? null : JSON.stringify(body),
      headers: body === undefined ? {} : { "content-type": "application/json" },
    })
    const text = await response.body.text()
    if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${text}`)
    return text === "" ? null : JSON.parse(text)
  }

  /** Creates and starts a container with the same configuration proctor asks for. */
  async start(image: string): Promise<string> {
    const { Id } = (await this.call("POST", "/containers/create", {
      Image: image,
      Entrypoint: ["sleep"],
      Cmd: ["infinity"],
      WorkingDir: "/app",
      Env: [],
      Labels: { "proctor.bench": "bare" },
      HostConfig: {
        NetworkMode: "none",
        Init: true,
        Memory: 2048 * 2 ** 20,
        MemorySwap: 2048 * 2 ** 20,
        PidsLimit: 1024,
      },
    })) as { Id: string }
    await this.call("POST", `/containers/${Id}/start`)
    return Id
  }

  /** Runs argv to its end (the daemon streams the output on the same response, then closes it): exit code. */
  async exec(id: string, argv: ReadonlyArray<string>): Promise<number> {
    const { Id } = (await this.call("POST", `/containers/${id}/exec`, {
      AttachStdout: true,
      AttachStderr: true,
      Cmd: argv,
    })) as { Id: string }
    const response = await this.pool.request({
      method: "POST",
      path: `/v1.41/exec/${Id}/start`,
      body: JSON.stringify({ Detach: false, Tty: false }),
      headers: { "content-type": "application/json" },
    })
    await response.body.arrayBuffer()
    const info = (await this.call("GET", `/exec/${Id}/json`)) as { ExitCode: number }
    return info.ExitCode
  }

  async remove(id: string): Promise<void> {
    await this.call("DELETE", `/containers/${id}?force=1&v=1`)
  }

  close(): Promise<void> {
    return this.pool.close()
  }
}
