import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { startOtlpCollector, testCall, testResult, testStep, waitFor } from "@proctor/test-kit"
import { Effect, Either } from "effect"
import type { RunProgress } from "../src/events/RunEvents.js"
import { OtlpExport, otlpSettingsOf } from "../src/otlp/OtlpExport.js"

const progress: RunProgress = {
  planned: 1,
  done: 1,
  ok: 1,
  errored: 0,
  retries: 0,
  inFlight: 0,
  scoreSum: 1,
  scored: 1,
  elapsedMs: 1000,
  alreadyDone: 0,
}

describe("otlpSettingsOf", () => {
  it("is off unless a flag or a standard variable names an endpoint", () => {
    expect(otlpSettingsOf(undefined, {})).toEqual(Either.right(null))
    expect(otlpSettingsOf("http://c:4318", {})).toEqual(
      Either.right({ url: "http://c:4318/v1/traces", describe: "http://c:4318/v1/traces", exportTimeoutMs: 10_000 }),
    )
    expect(otlpSettingsOf("http://c:4318/v1/traces", { OTEL_EXPORTER_OTLP_TIMEOUT: "2500" })).toEqual(
      Either.right({ url: "http://c:4318/v1/traces", describe: "http://c:4318/v1/traces", exportTimeoutMs: 2500 }),
    )
    // From the environment the SDK's exporter reads the variables itself (headers, timeout, compression too).
    expect(otlpSettingsOf(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" })).toEqual(
      Either.right({ url: undefined, describe: "http://c:4318/v1/traces", exportTimeoutMs: 10_000 }),
    )
    expect(otlpSettingsOf(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t/x" })).toEqual(
      Either.right({ url: undefined, describe: "http://t/x", exportTimeoutMs: 10_000 }),
    )
    const disabled = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" }
    expect(otlpSettingsOf(undefined, disabled)).toEqual(Either.right(null))
    expect(
      otlpSettingsOf(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_EXPORTER: "none" }),
    ).toEqual(Either.right(null))
  })

  it("refuses what it cannot honour, by name", () => {
    const grpc = otlpSettingsOf(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
    })
    expect(Either.isLeft(grpc) && grpc.left.message).toBe(
      'OTEL_EXPORTER_OTLP_PROTOCOL: proctor exports traces over http/protobuf only, got "grpc"',
    )
    const bad = otlpSettingsOf("c:4318", {})
    expect(Either.isLeft(bad) && bad.left.message).toContain("--otlp-endpoint: expected an http(s) URL")
  })
})

describe("OtlpExport", () => {
  it.scoped("sends an agent rollout's commands, tool calls and model calls under its rollout span", () =>
    Effect.gen(function* () {
      const collector = yield* Effect.acquireRelease(
        Effect.promise(() => startOtlpCollector()),
        (c) => Effect.promise(() => c.close()),
      )
      const settings = Either.getOrThrow(otlpSettingsOf(collector.url, {}))
      const otlp = yield* OtlpExport.make(settings!)
      const rolloutId = "rollout-0"
      otlp.onEvent({ _tag: "RunStarted", runId: "run-7", runDir: null, planned: 1, alreadyDone: 0 })
      otlp.onModelCall(
        testCall({
          rollout_id: rolloutId,
          provider: "anthropic",
          model: "claude-haiku-4-5",
          usage: {
            prompt_tokens: 120,
            completion_tokens: 30,
            total_tokens: 150,
            cached_tokens: 100,
            reasoning_tokens: null,
          },
          cost_usd: 0.00026,
        }),
      )
      otlp.onModelCall(
        testCall({
          call_id: "call_unpriced",
          rollout_id: rolloutId,
          outcome: "error",
          status: 500,
          error: "upstream 500",
        }),
      )
      // A model grader's call, under the rollout it graded.
      otlp.onModelCall(
        testCall({
          call_id: "call_judge",
          rollout_id: rolloutId,
          model: "judge-model",
          role: "judge",
          grader: "rubric",
        }),
      )
      const tool = testStep(0, 1, "tool", { text: "calculator", tool_call_id: "tc_1", duration_ms: 5 })
      otlp.onEvent({ _tag: "RolloutStep", step: tool })
      const command = testStep(0, 2, "command", { command: "pytest -q", exit_code: 1, duration_ms: 1200 })
      otlp.onEvent({ _tag: "RolloutStep", step: command })
      otlp.onEvent({ _tag: "RolloutStep", step: testStep(0, 3, "note", { text: "graded" }) })
      const result = testResult({ run_id: rolloutId, score: 1, cost_usd: 0.00026, tokens: 150 })
      otlp.onEvent({ _tag: "RolloutFinished", result, progress })

      // A collector that answers is waited for (up to the export timeout), whatever the run's length.
      const report = yield* otlp.finish(1000)
      expect(report).toEqual({ endpoint: settings!.describe, submitted: 6, sent: 6, dropped: 0, error: null })
      yield* Effect.promise(() => waitFor("six spans", () => collector.spans.length === 6))

      const root = collector.spans.find((s) => s.name === "rollout")!
      expect(root.attributes).toMatchObject({ "proctor.run_id": "run-7", "proctor.score": 1, "proctor.tokens": 150 })
      for (const child of collector.spans.filter((s) => s !== root)) {
        expect(child.parentSpanId).toBe(root.spanId)
        expect(child.traceId).toBe(root.traceId)
      }
      const byName = (name: string) => collector.spans.find((s) => s.name === name)!
      expect(byName("chat judge-model").attributes).toMatchObject({
        "proctor.role": "judge",
        "proctor.grader": "rubric",
      })
      expect(byName("chat claude-haiku-4-5").attributes).not.toHaveProperty("proctor.role")
      expect(byName("chat claude-haiku-4-5").attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "anthropic",
        "gen_ai.request.model": "claude-haiku-4-5",
        "gen_ai.usage.input_tokens": 120,
        "gen_ai.usage.output_tokens": 30,
        "gen_ai.usage.cache_read.input_tokens": 100,
        "proctor.cost_usd": 0.00026,
      })
      const failed = collector.spans.find((s) => s.attributes["proctor.call_id"] === "call_unpriced")!
      expect(failed.statusCode).toBe(2) // STATUS_CODE_ERROR
      expect(failed.attributes["error.type"]).toBe("500")
      // Unpriced stays unpriced: no cost attribute at all, never 0.
      expect(failed.attributes).not.toHaveProperty("proctor.cost_usd")
      expect(byName("execute_tool calculator").attributes).toMatchObject({
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "calculator",
        "gen_ai.tool.call.id": "tc_1",
      })
      const sandbox = byName("sandbox command")
      expect(sandbox.attributes).toMatchObject({ "proctor.command": "pytest -q", "process.exit.code": 1 })
      expect(sandbox.statusCode).toBe(2)
    }),
  )

  it.scoped("lets go at once of a collector that refuses connections, and counts its spans as dropped", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(async () => {
        const server = createServer()
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
        const { port } = server.address() as AddressInfo
        await new Promise((resolve) => server.close(resolve))
        return port
      })
      const settings = Either.getOrThrow(otlpSettingsOf(`http://127.0.0.1:${port}`, {}))
      const otlp = yield* OtlpExport.make(settings!)
      otlp.onModelCall(testCall({ rollout_id: "rollout-0" }))
      otlp.onEvent({ _tag: "RolloutFinished", result: testResult({ run_id: "rollout-0" }), progress })
      // A ten-minute run would wait up to the export timeout for a collector that answers; this one refused.
      const report = yield* otlp.finish(600_000)
      expect(report).toEqual({
        endpoint: `http://127.0.0.1:${port}/v1/traces`,
        submitted: 2,
        sent: 0,
        dropped: 2,
        error: `cannot connect to 127.0.0.1:${port}`,
      })
    }),
  )
})
