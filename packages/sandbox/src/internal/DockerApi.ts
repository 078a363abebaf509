import { connect, type Socket } from "node:net"
import type { Readable } from "node:stream"
import { type Dispatcher, Pool } from "undici"

/** Docker Engine API 1.41 (dockerd 20.10), the oldest the daemons proctor meets speak. */
const API = "/v1.41"

/** How long a container's quick calls (create, start, inspect, remove, exec create and inspect) may go unanswered. */
const DEFAULT_CALL_TIMEOUT_MS = 60_000
/** `/_ping` answers at once from a daemon that is there at all, however wedged its containers are. */
const PING_TIMEOUT_MS = 2_000

export class DockerApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/**
 * A quick call the daemon did not answer in time. While `/_ping` still answers, the daemon is most likely
 * deadlocked: dockerd before 20.10.27 (Debian 12's docker.io is 20.10.24) deadlocks in libnetwork when several
 * containers are removed at once, and every later call touching a container, or starting one, hangs forever.
 */
export class DaemonTimeoutError extends Error {
  constructor(call: string, timeoutMs: number, pingAnswers: boolean) {
    const unanswered = `the Docker daemon did not answer ${call} within ${timeoutMs / 1000} s`
    super(
      pingAnswers
        ? `${unanswered} while /_ping answers: it may be deadlocked (Docker 20.10 before 20.10.27, moby/moby#46661); restart dockerd`
        : `${unanswered}, nor /_ping: it is overloaded or gone; check that dockerd runs`,
    )
  }
}

export interface DockerResponse {
  readonly status: number
  readonly body: Dispatcher.ResponseData["body"]
}

/**
 * The Engine API over the daemon's unix socket: undici's keep-alive pool for the request/response endpoints, and a
 * raw connection for `exec/start`, which the daemon hijacks into a bidirectional stream (stdin needs it).
 */
export class DockerApi {
  private readonly pool: Pool

  constructor(
    readonly socketPath: string,
    private readonly callTimeoutMs: number = DEFAULT_CALL_TIMEOUT_MS,
  ) {
    this.pool = new Pool("http://docker", { socketPath, connections: 64, pipelining: 1 })
  }

  /** Any status; the body must be consumed or dumped. Without `headersTimeout`, undici's default (300 s). */
  async raw(
    method: "GET" | "POST" | "PUT" | "DELETE" | "HEAD",
    path: string,
    body?: string | Buffer | Readable,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
    headersTimeout?: number,
  ): Promise<DockerResponse> {
    const response = await this.pool.request({
      method,
      path: `${API}${path}`,
      body: body ?? null,
      headers: typeof body === "string" ? { "content-type": "application/json", ...headers } : headers,
      ...(signal === undefined ? {} : { signal }),
      ...(headersTimeout === undefined ? {} : { headersTimeout }),
    })
    return { status: response.statusCode, body: response.body }
  }

  /**
   * The parsed JSON answer of a 2xx (null for an empty one); a `DockerApiError` with the daemon's message otherwise.
   * For the calls a daemon answers in well under a second: one that has not begun to answer within `callTimeoutMs`
   * fails with a `DaemonTimeoutError`, instead of hanging a rollout for as long as a wedged daemon stays wedged.
   */
  async json<A = unknown>(
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<A> {
    const response = await this.raw(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
      {},
      signal,
      this.callTimeoutMs,
    ).catch(async (cause: unknown) => {
      // undici's HeadersTimeoutError, by its code: the CLI's bundle gives this package undici's Pool alone.
      if ((cause as { code?: unknown } | null)?.code !== "UND_ERR_HEADERS_TIMEOUT") throw cause
      throw new DaemonTimeoutError(`${method} ${shortPath(path)}`, this.callTimeoutMs, await this.pingAnswers())
    })
    const text = await readText(response.body)
    if (response.status >= 300) throw new DockerApiError(response.status, errorMessage(text, response.status))
    return (text === "" ? null : JSON.parse(text)) as A
  }

  /** Starts an exec and resolves to the hijacked connection (the multiplexed output follows on it). */
  startExec(execId: string): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.socketPath)
      const body = JSON.stringify({ Detach: false, Tty: false })
      socket.once("error", reject)
      socket.once("connect", () => {
        socket.write(
          `POST ${API}/exec/${execId}/start HTTP/1.1\r\nHost: docker\r\nContent-Type: application/json\r\n` +
            `Connection: Upgrade\r\nUpgrade: tcp\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        )
      })
      let head = Buffer.alloc(0)
      const onData = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk])
        const end = head.indexOf("\r\n\r\n")
        if (end === -1) return
        socket.off("data", onData)
        socket.off("error", reject)
        const statusLine = head.subarray(0, head.indexOf("\r\n")).toString()
        const status = Number(statusLine.split(" ")[1])
        const rest = head.subarray(end + 4)
        if (status !== 101 && status !== 200) {
          socket.destroy()
          reject(new DockerApiError(status, errorMessage(rest.toString(), status)))
          return
        }
        socket.pause()
        if (rest.length > 0) socket.unshift(rest)
        resolve(socket)
      }
      socket.on("data", onData)
    })
  }

  /** Whether the daemon answers at all: tells a wedged daemon from one that is gone. */
  private async pingAnswers(): Promise<boolean> {
    try {
      const response = await this.raw("GET", "/_ping", undefined, {}, AbortSignal.timeout(PING_TIMEOUT_MS))
      await response.body.dump()
      return response.status === 200
    } catch {
      return false
    }
  }

  close(): Promise<void> {
    return this.pool.close()
  }
}

export const readText = async (body: Readable): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of body) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

export const readBytes = async (body: Readable): Promise<Buffer> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of body) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** A call's path as a person reads it: no query, ids cut to Docker's 12 characters. */
const shortPath = (path: string): string => path.replace(/\?.*$/, "").replace(/\b([0-9a-f]{12})[0-9a-f]{52}\b/g, "$1")

const errorMessage = (text: string, status: number): string => {
  try {
    const parsed = JSON.parse(text) as { message?: unknown }
    if (typeof parsed.message === "string") return parsed.message
  } catch {
    // Not JSON: the text itself.
  }
  return text.trim() || `HTTP ${status}`
}
