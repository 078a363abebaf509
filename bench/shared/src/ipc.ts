import type { ChildProcess } from "node:child_process"

/**
 * The IPC probe between a bench and a process it forked: requests `{id, op, …}`, replies `{id, …}` or
 * `{id, error}`. The bench side: `call(message)` resolves with the reply (without its id).
 */
export const ipcClient = (child: ChildProcess, what: string) => {
  let nextId = 0
  const waiting = new Map<number, { resolve: (reply: unknown) => void; reject: (error: Error) => void }>()
  child.on("message", (raw) => {
    const { id, error, ...reply } = raw as { id: number; error?: string }
    const entry = waiting.get(id)
    if (entry === undefined) return
    waiting.delete(id)
    if (error !== undefined) entry.reject(new Error(`${what}: ${error}`))
    else entry.resolve(reply)
  })
  child.once("exit", (code) => {
    for (const entry of waiting.values()) entry.reject(new Error(`${what} exited (${code}) before answering`))
    waiting.clear()
  })
  return <A>(message: { readonly op: string } & Record<string, unknown>): Promise<A> =>
    new Promise<A>((resolve, reject) => {
      const id = nextId++
      waiting.set(id, { resolve: resolve as (reply: unknown) => void, reject })
      child.send({ id, ...message })
    })
}

/** The forked process's side: answers each request with `answer`'s result (or its error's message). */
export const answerIpc = <M extends { readonly op: string }>(answer: (message: M) => Promise<object> | object) => {
  // The bench may have gone (Ctrl-C) with a request in flight.
  const send = (reply: object) => {
    if (process.connected) process.send!(reply)
  }
  process.on("message", (raw: unknown) => {
    const { id, ...message } = raw as { id: number } & M
    Promise.resolve()
      .then(() => answer(message as unknown as M))
      .then(
        (reply) => send({ id, ...reply }),
        (error: unknown) => send({ id, error: error instanceof Error ? error.message : String(error) }),
      )
  })
}
