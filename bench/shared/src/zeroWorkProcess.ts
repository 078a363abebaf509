import { jsonLine, type StartedProcess, startProcess } from "./processes.js"

/** The zero-work task app every bench runs as its own process: `node ZERO_WORK_TASK_APP …`. */
export const ZERO_WORK_TASK_APP = new URL("./zeroWorkTaskApp.js", import.meta.url).pathname

export interface ZeroWorkTaskApp extends StartedProcess<{ readonly port: number }> {
  readonly origin: string
}

/** The zero-work task app on a free port, in its own process (it exits with the bench's stdin pipe, too). */
export const startZeroWorkTaskApp = async (): Promise<ZeroWorkTaskApp> => {
  const app = await startProcess({
    what: "the zero-work task app",
    script: ZERO_WORK_TASK_APP,
    args: ["0", "--exit-with-stdin"],
    stdinPipe: true,
    ready: jsonLine<{ port: number }>(),
  })
  return { ...app, origin: `http://127.0.0.1:${app.ready.port}` }
}
