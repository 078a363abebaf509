import { execFile } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, vi } from "@effect/vitest"
import { jsonLinesOf, resultsIn } from "@proctor/test-kit"
import { Effect, Stream } from "effect"
import { evaluate } from "../src/eval/Evaluate.js"
import type { RunEvent } from "../src/events/RunEvents.js"
import type { RolloutStep } from "../src/result/RolloutStep.js"
import { type ExecResult, SandboxError, type SandboxRuntimeService, type SandboxSpec } from "../src/sandbox/Sandbox.js"
import { openRunReader } from "../src/store/RunReader.js"

const freshDir = () => mkdtempSync(join(tmpdir(), "proctor-agents-"))

/**
 * A sandbox runtime for these tests only: each sandbox is a fresh temp directory, commands run there with `sh -c`
 * (no isolation; the real runtimes are @proctor/sandbox's). Records what it opened and tore down.
 */
const tempDirRuntime = (root: string) => {
  const opened: Array<SandboxSpec> = []
  const removed: Array<string> = []
  let failStarts = 0
  const runtime: SandboxRuntimeService = {
    name: "local",
    isolated: false,
    enforcesStorage: false,
    prepare: () => Effect.void,
    prune: () => Effect.succeed({ removed: 0, running: 0 }),
    open: (spec) =>
      Effect.acquireRelease(
        Effect.suspend(() => {
          if (failStarts > 0) {
            failStarts--
            return Effect.fail(new SandboxError({ reason: "StartFailed", message: "would not start" }))
          }
          const dir = join(root, `sandbox-${opened.length}`)
          mkdirSync(dir)
          opened.push(spec)
          return Effect.succeed(dir)
        }),
        (dir) =>
          Effect.sync(() => {
            rmSync(dir, { recursive: true, force: true })
            removed.push(dir)
          }),
      ).pipe(
        Effect.map((dir) => ({
          id: dir,
          runtime: "local" as const,
          workdir: dir,
          exec: (command: ReadonlyArray<string> | string) =>
            Effect.async<ExecResult, SandboxError>((resume) => {
              const t0 = Date.now()
              const argv = typeof command === "string" ? ["sh", "-c", command] : [...command]
              execFile(argv[0]!, argv.slice(1), { cwd: dir }, (error, stdout, stderr) => {
                const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
                resume(
                  Effect.succeed({
                    exitCode: code,
                    stdout,
                    stderr,
                    stdoutTruncated: false,
                    stderrTruncated: false,
                    timedOut: false,
                    durationMs: Date.now() - t0,
                  }),
                )
              })
            }),
          copyIn: () => Effect.void,
          copyOut: () => Effect.void,
          writeFile: (path: string, content: string | Uint8Array) =>
            Effect.sync(() => writeFileSync(join(dir, path), content)),
          readFile: (path: string) =>
            Effect.sync(() => (existsSync(join(dir, path)) ? readFileSync(join(dir, path)) : null)),
        })),
      ),
  }
  return {
    runtime,
    opened,
    removed,
    failNextStarts: (n: number) => {
      failStarts = n
    },
  }
}

/** `evaluate`'s sandbox option: the test runtime's sandboxes, of an image it ignores. */
const sandboxOf = (sandboxes: ReturnType<typeof tempDirRuntime>, image = "x") => ({
  runtime: sandboxes.runtime,
  spec: () => ({ image: { _tag: "Named" as const, name: image } }),
})

describe("evaluate() with multi-step solvers (agents)", () => {
  it("an async generator: steps stored in order as they happen, the first result ends it, the generator is closed", async () => {
    const runDir = join(freshDir(), "run")
    const closed: Array<string> = []
    let yieldedAfterResult = false
    const events: Array<RunEvent> = []
    const outcome = await evaluate({
      name: "gen",
      tasks: [{ id: "a" }, { id: "b" }],
      runDir,
      onEvent: (event) => events.push(event),
      solve: async function* (task) {
        try {
          yield {
            kind: "model",
            text: `thinking about ${task.id}`,
            tool_calls: [{ id: "c1", name: "bash", arguments: "{}" }],
          }
          yield { kind: "command", command: "echo hi", exit_code: 0, stdout: "hi\n" }
          yield { kind: "tool", tool_call_id: "c1", output: "hi" }
          yield { score: task.id === "a" ? 1 : 0, messages: 4 }
          yieldedAfterResult = true
          yield { kind: "note", text: "never reached" }
          return { score: 0.5 }
        } finally {
          closed.push(task.id)
        }
      },
    })
    expect(yieldedAfterResult).toBe(false)
    expect(closed.sort()).toEqual(["a", "b"])
    const results = resultsIn(runDir)
    expect(results.find((r) => r.task_id === "a")).toMatchObject({
      score: 1,
      stop_reason: "model_ended",
      turns: 1,
      messages: 4,
    })
    expect(outcome.summary.length_stats).toMatchObject({
      completions: 2,
      frac_correct: 0.5,
      frac_model_ended: 0.5,
      stop_reasons: { model_ended: 2 },
    })

    const steps = jsonLinesOf<RolloutStep>(join(runDir, "steps.jsonl"))
    expect(steps).toHaveLength(6)
    const reader = await Effect.runPromise(openRunReader(runDir))
    const a = results.find((r) => r.task_id === "a")!
    const stored = await Effect.runPromise(reader.steps(a.seed, a.attempt))
    expect(reader.stepCount(a.seed, a.attempt)).toBe(3)
    expect(stored.map((s) => [s.index, s.kind])).toEqual([
      [0, "model"],
      [1, "command"],
      [2, "tool"],
    ])
    expect(stored[1]).toMatchObject({
      rollout_id: a.run_id,
      seed: a.seed,
      attempt: 0,
      retry: 0,
      command: "echo hi",
      exit_code: 0,
      stdout: "hi\n",
    })
    expect(stored[1]!.elapsed_ms).toBeGreaterThanOrEqual(stored[0]!.elapsed_ms)
    // Each step was published as it happened, before its rollout finished.
    const tags = events.filter((e) => e._tag === "RolloutStep" || e._tag === "RolloutFinished").map((e) => e._tag)
    expect(tags.indexOf("RolloutStep")).toBeLessThan(tags.indexOf("RolloutFinished"))
  })

  it("an Effect Stream solver stops at its first result and its finalizer runs", async () => {
    let pulledAfter = 0
    let finalized = 0
    const outcome = await evaluate({
      name: "stream",
      tasks: [{ id: 1 }],
      runDir: join(freshDir(), "run"),
      solve: () =>
        Stream.make<Array<{ kind: "note"; text: string } | { score: number }>>(
          { kind: "note", text: "start" },
          { score: 1 },
        ).pipe(
          Stream.concat(Stream.fromEffect(Effect.sync(() => ++pulledAfter)).pipe(Stream.as({ score: 0 }))),
          Stream.ensuring(Effect.sync(() => ++finalized)),
        ),
    })
    expect(outcome.summary.metrics.mean_score).toBe(1)
    expect(pulledAfter).toBe(0)
    expect(finalized).toBe(1)
  })

  it("gives each rollout its own labelled sandbox, torn down after it; setup and teardown run once per run", async () => {
    const root = freshDir()
    const sandboxes = tempDirRuntime(root)
    const lifecycle: Array<string> = []
    const runDir = join(root, "run")
    const outcome = await evaluate({
      name: "sandboxed",
      tasks: [
        { id: "x", file: "answer.txt" },
        { id: "y", file: "other.txt" },
      ],
      runDir,
      concurrency: 2,
      setup: () => {
        lifecycle.push("setup")
        return { greeting: "hello" }
      },
      teardown: (shared) => {
        lifecycle.push(`teardown ${shared.greeting}`)
      },
      sandbox: sandboxOf(sandboxes, "busybox"),
      solve: async function* (task, ctx) {
        const run = await ctx.sandbox.exec(`printf %s ${ctx.shared.greeting} > ${task.file} && cat ${task.file}`)
        yield { kind: "command", command: "write", exit_code: run.exitCode, stdout: run.stdout }
        const grade = await ctx.sandbox.exec(["test", "-f", "answer.txt"])
        return { score: grade.exitCode === 0 ? 1 : 0 }
      },
    })
    expect(lifecycle).toEqual(["setup", "teardown hello"])
    expect(outcome.summary.metrics.mean_score).toBe(0.5)
    expect(sandboxes.opened).toHaveLength(2)
    const results = resultsIn(runDir)
    const runId = JSON.parse(readFileSync(join(runDir, "config.json"), "utf8")).run_id
    expect(sandboxes.opened.map((spec) => spec.labels.rolloutId).sort()).toEqual(results.map((r) => r.run_id).sort())
    expect(sandboxes.opened.every((spec) => spec.labels.runId === runId)).toBe(true)
    expect(sandboxes.removed).toHaveLength(2)
    expect(sandboxes.removed.every((dir) => !existsSync(dir))).toBe(true)
    const steps = jsonLinesOf<RolloutStep>(join(runDir, "steps.jsonl"))
    expect(steps.map((s) => s.stdout).sort()).toEqual(["hello", "hello"])
  })

  it("a sandbox that would not start is retried and never scored; when it never starts the rollout is a sandbox error", async () => {
    const root = freshDir()
    const sandboxes = tempDirRuntime(root)
    sandboxes.failNextStarts(1)
    let solved = 0
    const evaluateIn = (name: string, runDir: string, maxRetries: number) =>
      evaluate({
        name,
        tasks: [{ id: "t" }],
        runDir,
        maxRetries,
        sandbox: sandboxOf(sandboxes),
        solve: async function* () {
          solved++
          yield { kind: "note", text: "started" }
          return { score: 1 }
        },
      })
    const outcome = await evaluateIn("flaky-sandbox", join(root, "run"), 2)
    expect(solved).toBe(1)
    expect(outcome.summary.metrics.mean_score).toBe(1)
    expect(resultsIn(join(root, "run"))[0]).toMatchObject({ retries: 1, score: 1 })

    sandboxes.failNextStarts(10)
    const failed = await evaluateIn("dead-sandbox", join(root, "run2"), 1)
    expect(solved).toBe(1)
    expect(failed.summary.errors_by_kind).toEqual({ sandbox: 1 })
    expect(failed.summary.metrics.count).toBe(0)
    expect(resultsIn(join(root, "run2"))[0]).toMatchObject({ status: "error", error_kind: "sandbox", score: null })
  })

  it("a SandboxError thrown inside the solver (the sandbox died mid-rollout) is retried, never scored", async () => {
    const root = freshDir()
    const sandboxes = tempDirRuntime(root)
    let tries = 0
    const outcome = await evaluate({
      name: "died",
      tasks: [{ id: "t" }],
      runDir: join(root, "run"),
      maxRetries: 1,
      sandbox: sandboxOf(sandboxes),
      solve: async function* () {
        tries++
        yield { kind: "note", text: "working" }
        throw new SandboxError({ reason: "Died", message: "killed from outside" })
      },
    })
    expect(tries).toBe(2)
    expect(outcome.summary.errors_by_kind).toEqual({ sandbox: 1 })
    expect(resultsIn(join(root, "run"))[0]).toMatchObject({ status: "error", error_kind: "sandbox", retries: 1 })
    expect(sandboxes.removed).toHaveLength(2)
  })

  it("resume after a crash keeps the steps of finished rollouts; the rerun rollout's steps are its own", async () => {
    const runDir = join(freshDir(), "run")
    const tasks = [{ id: "done" }, { id: "cut" }]
    const stop = new AbortController()
    const closedFirst: Array<string> = []
    await evaluate({
      name: "resumable",
      tasks,
      runDir,
      concurrency: 2,
      graceMs: 0,
      signal: stop.signal,
      solve: async function* (task, ctx) {
        try {
          yield { kind: "note", text: `first session ${task.id}` }
          if (task.id === "cut") {
            stop.abort()
            await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve))
          }
          return { score: 1 }
        } finally {
          closedFirst.push(task.id)
        }
      },
    })
    expect(resultsIn(runDir).map((r) => r.task_id)).toEqual(["done"])
    // The cancelled rollout's generator was told to stop (its signal aborted) and closed.
    await vi.waitFor(() => expect(closedFirst.sort()).toEqual(["cut", "done"]))
    const second = await evaluate({
      name: "resumable",
      tasks,
      runDir,
      solve: async function* (task) {
        yield { kind: "note", text: `second session ${task.id}` }
        return { score: 1 }
      },
    })
    expect(second.summary.completed).toBe(2)
    const reader = await Effect.runPromise(openRunReader(runDir))
    const bySeed = new Map(resultsIn(runDir).map((r) => [r.task_id, r]))
    const done = bySeed.get("done")!
    const cut = bySeed.get("cut")!
    expect((await Effect.runPromise(reader.steps(done.seed, 0))).map((s) => s.text)).toEqual(["first session done"])
    expect((await Effect.runPromise(reader.steps(cut.seed, 0))).map((s) => s.text)).toEqual(["second session cut"])
    // The killed session's step stays in the file, under a rollout id no result holds.
    expect(reader.stepCount(cut.seed, 0)).toBe(2)
  })

  it("limits from evaluate's options reach ctx.limits; an agent that stops at max_turns says so", async () => {
    const runDir = join(freshDir(), "run")
    await evaluate({
      name: "turns",
      tasks: [{ id: 1 }],
      runDir,
      limits: { maxTurns: 2 },
      solve: async function* (_task, ctx) {
        while (ctx.limits!.turnsLeft()! > 0) yield { kind: "model", text: "turn" }
        return { score: 0, stop_reason: "max_turns" as const }
      },
    })
    expect(resultsIn(runDir)[0]).toMatchObject({ score: 0, stop_reason: "max_turns", turns: 2 })
  })
})

/** A model on loopback: every chat completion or message uses 30 input and 30 output tokens. */
const fixedUsageModel = async () => {
  const server = createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      const body = req.url?.endsWith("/messages")
        ? {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "m",
            content: [{ type: "text", text: "ok" }],
            stop_reason: "end_turn",
            usage: { input_tokens: 30, output_tokens: 30 },
          }
        : {
            id: "c1",
            object: "chat.completion",
            model: "m",
            choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
            usage: { prompt_tokens: 30, completion_tokens: 30, total_tokens: 60 },
          }
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify(body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(resolve)) }
}

/** Runs `test` with a fixed-usage model up, closing it after. */
const withFixedUsageModel = async (test: (model: { readonly url: string }) => Promise<void>) => {
  const model = await fixedUsageModel()
  try {
    await test(model)
  } finally {
    await model.close()
  }
}

/** One chat completion through the interceptor at `inferenceUrl`. */
const chatCompletion = (inferenceUrl: string) =>
  fetch(`${inferenceUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "go" }] }),
  })

describe("token and cost budgets, enforced by the interceptor", () => {
  it("the call after the budget is spent gets a 400 proctor_limit error; the rollout ends with stop_reason max_tokens", async () => {
    await withFixedUsageModel(async (model) => {
      const runDir = join(freshDir(), "run")
      const answers: Array<{ status: number; body: unknown; reached: string | null }> = []
      await evaluate({
        name: "budget",
        tasks: [{ id: "t" }],
        runDir,
        maxRetries: 0,
        limits: { maxTokens: 100 },
        model: { baseUrl: model.url, provider: "local" },
        solve: async function* (_task, ctx) {
          for (let turn = 0; turn < 5; turn++) {
            const response = await chatCompletion(ctx.inferenceUrl)
            answers.push({ status: response.status, body: await response.json(), reached: ctx.limits!.reached() })
            if (!response.ok) break
            yield { kind: "model", text: "ok", tokens: 60 }
          }
          return { score: 0 }
        },
      })
      // 60 tokens, then 120 (over 100: the limit is reached), then refused.
      expect(answers.map((a) => [a.status, a.reached])).toEqual([
        [200, null],
        [200, "max_tokens"],
        [400, "max_tokens"],
      ])
      expect(answers[2]!.body).toMatchObject({
        error: { type: "proctor_limit", code: "max_tokens", message: expect.stringContaining("120 of max_tokens 100") },
      })
      expect(resultsIn(runDir)[0]).toMatchObject({ status: "ok", stop_reason: "max_tokens", tokens: 120, retries: 0 })
    })
  })

  it("an agent behind the interceptor with no limits set still ends with a stop reason; per-task limits apply", async () => {
    await withFixedUsageModel(async (model) => {
      const runDir = join(freshDir(), "run")
      await evaluate({
        name: "no-limits",
        tasks: [{ id: "free" }, { id: "tight", maxTurns: 1 }],
        runDir,
        model: { baseUrl: model.url, provider: "local" },
        solve: async function* (task: { id: string; maxTurns?: number }, ctx) {
          if (task.maxTurns !== undefined) ctx.limits!.override({ maxTurns: task.maxTurns })
          for (let turn = 0; turn < 2; turn++) {
            await chatCompletion(ctx.inferenceUrl).then((response) => response.json())
            yield { kind: "model", text: "ok" }
          }
          return { score: 1 }
        },
      })
      const results = resultsIn(runDir)
      expect(results.find((r) => r.task_id === "free")).toMatchObject({
        stop_reason: "model_ended",
        turns: 2,
        tokens: 120,
      })
      expect(results.find((r) => r.task_id === "tight")).toMatchObject({ stop_reason: "max_turns", turns: 1 })
    })
  })

  it("an agent whose first call is refused (budget spent by a cost limit) is graded with max_cost, in Anthropic's error shape", async () => {
    await withFixedUsageModel(async (model) => {
      const runDir = join(freshDir(), "run")
      const bodies: Array<unknown> = []
      await evaluate({
        name: "cost",
        tasks: [{ id: "t" }],
        runDir,
        maxRetries: 0,
        limits: { maxCost: 0.00001 },
        model: { baseUrl: model.url, provider: "local" },
        pricing: [{ provider: "local", model: "m", price: { input: 1e-6, output: 1e-6 } }],
        solve: async (_task, ctx) => {
          for (let turn = 0; turn < 3; turn++) {
            const response = await fetch(`${ctx.inferenceUrl}/messages`, {
              method: "POST",
              headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
              body: JSON.stringify({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "go" }] }),
            })
            bodies.push(await response.json())
            if (!response.ok) throw new Error(`model answered ${response.status}`)
          }
          return { score: 1 }
        },
      })
      // $0.00006 per call: over $0.00001 after the first; the second is refused and the solver throws.
      expect(bodies).toHaveLength(2)
      expect(bodies[1]).toMatchObject({ type: "error", error: { type: "proctor_limit", code: "max_cost" } })
      expect(resultsIn(runDir)[0]).toMatchObject({ status: "ok", score: 0, stop_reason: "max_cost", retries: 0 })
    })
  })
})
