import { cores, int, ms, type Percentiles, percentiles, startCpuMeter } from "@proctor/bench-shared"
import autocannon from "autocannon"
import { CONNECTIONS, PIPELINING } from "./settings.js"

export interface LoadResult {
  readonly target: "server" | "bare"
  readonly requests: number
  readonly seconds: number
  readonly rps: number
  /** From every 2xx response's own time (autocannon's `response` event, ms with sub-ms resolution). */
  readonly latency: Percentiles
  /** autocannon's own histogram (whole ms). */
  readonly autocannonP50: number
  readonly autocannonP99: number
  /** Server CPU µs per request (the process answering). */
  readonly serverCpuUs: number
  /** Load generator (this process) CPU µs per request. */
  readonly clientCpuUs: number
  readonly otherCores: number
}

export const hammer = (
  target: LoadResult["target"],
  url: string,
  headers: Record<string, string>,
  expectBody: string,
  seconds: number,
  serverPid: number,
  otherPids: ReadonlyArray<number>,
  connections = CONNECTIONS,
): Promise<LoadResult> =>
  new Promise((resolve, reject) => {
    let latencies = new Float64Array(1 << 18)
    let n = 0
    const meter = startCpuMeter([serverPid, ...otherPids])
    const instance = autocannon(
      { url, connections, pipelining: PIPELINING, duration: seconds, headers, expectBody },
      (error, result) => {
        if (error !== null && error !== undefined) return reject(error)
        const cpu = meter()
        const bad = result.non2xx + result.errors + result.timeouts + result.mismatches
        if (bad > 0) {
          return reject(
            new Error(
              `${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts, ` +
                `${result.mismatches} bodies not the expected one (of ${result.requests.total})`,
            ),
          )
        }
        resolve({
          target,
          requests: result.requests.total,
          seconds: result.duration,
          rps: result.requests.total / result.duration,
          latency: percentiles(latencies.subarray(0, n)),
          autocannonP50: result.latency.p50,
          autocannonP99: result.latency.p99,
          serverCpuUs: ((cpu.children.get(serverPid) ?? 0) / result.requests.total) * 1e6,
          clientCpuUs: (cpu.self / result.requests.total) * 1e6,
          otherCores: cpu.otherCores,
        })
      },
    )
    // autocannon 9 emits (client, statusCode, resBytes, responseTime); @types/autocannon omits the client.
    ;(instance as unknown as NodeJS.EventEmitter).on(
      "response",
      (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
        if (statusCode < 200 || statusCode >= 300) return
        if (n === latencies.length) {
          const grown = new Float64Array(latencies.length * 2)
          grown.set(latencies)
          latencies = grown
        }
        latencies[n++] = ms
      },
    )
  })

export const describeLoad = (r: LoadResult) =>
  `${int(r.rps)} req/s, p50 ${ms(r.latency.p50)} ms, p99 ${ms(r.latency.p99)} ms, server CPU ${int(r.serverCpuUs)} µs/req, ` +
  `client ${int(r.clientCpuUs)} µs/req (others ${cores(r.otherCores)} cores)`
