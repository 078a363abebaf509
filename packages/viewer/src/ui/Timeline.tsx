import type { ModelCall, RolloutStep } from "@proctor/core"
import { useMemo } from "preact/hooks"
import { costOrUnpriced, duration, integer, MISSING } from "./format.js"
import { type TimelineEntry, timelineOf } from "./timeline.js"

const lineCount = (text: string): number => text.split("\n").length - (text.endsWith("\n") ? 1 : 0)

/** A command's output stream, folded away; opened at once when it is short. */
const Output = ({ label, text }: { label: "stdout" | "stderr"; text: string | undefined }) =>
  text === undefined || text === "" ? null : (
    <details class="output" open={lineCount(text) <= 6} data-testid={`step-${label}`}>
      <summary>
        {label} <small>({lineCount(text) === 1 ? "1 line" : `${lineCount(text)} lines`})</small>
      </summary>
      <pre>{text}</pre>
    </details>
  )

const Cut = ({ step }: { step: RolloutStep }) =>
  step.truncated === true ? <span class="muted"> · cut to the stored bound</span> : null

const StepBody = ({ step }: { step: RolloutStep }) => {
  switch (step.kind) {
    case "model":
      return (
        <>
          <div class="step-head">
            <b>model turn</b>
            {step.tokens === undefined || step.tokens === null ? "" : ` · ${integer(step.tokens)} tokens`}
            <Cut step={step} />
          </div>
          {step.text === undefined || step.text === "" ? null : <pre class="part part-text">{step.text}</pre>}
          {(step.tool_calls ?? []).map((call) => (
            <pre key={call.id} class="part part-tool-call" data-testid="step-tool-call">
              {call.name}({call.arguments}) <span class="muted"># {call.id}</span>
            </pre>
          ))}
        </>
      )
    case "tool":
      return (
        <>
          <div class="step-head">
            <b>tool result</b> · {step.text ?? "tool"}
            {step.tool_call_id === undefined ? "" : <span class="muted"> · for {step.tool_call_id}</span>}
            {step.duration_ms === undefined ? "" : ` · ${duration(step.duration_ms)}`}
            <Cut step={step} />
          </div>
          {step.output === undefined ? null : <pre class="part part-tool-result">{step.output}</pre>}
        </>
      )
    case "command": {
      const failed = step.exit_code !== 0
      return (
        <>
          <div class="step-head">
            <code class="command">$ {step.command ?? ""}</code>{" "}
            <span class={failed ? "exit bad" : "exit good"} data-testid="step-exit-code">
              {step.exit_code === null || step.exit_code === undefined ? "no exit code" : `exit ${step.exit_code}`}
            </span>
            {step.duration_ms === undefined ? "" : ` · ${duration(step.duration_ms)}`}
            <Cut step={step} />
          </div>
          <Output label="stdout" text={step.stdout} />
          <Output label="stderr" text={step.stderr} />
        </>
      )
    }
    case "note":
      return (
        <div class="step-head note">
          {step.text ?? ""}
          <Cut step={step} />
        </div>
      )
  }
}

const CallLine = ({ call, number }: { call: ModelCall; number: number }) => (
  <div class="step-head">
    <b>model call {number}</b> · {call.model ?? MISSING} · tokens {integer(call.usage?.prompt_tokens)} in /{" "}
    {integer(call.usage?.completion_tokens)} out · {duration(call.latency_ms)} · {costOrUnpriced(call.cost_usd)}
    {call.outcome === "ok" ? "" : <span class="bad"> · {call.outcome}</span>}
  </div>
)

const Entry = ({ entry, newTry }: { entry: TimelineEntry; newTry: number | null }) => {
  const kind = entry.type === "call" ? "call" : entry.step.kind
  const elapsedMs = entry.type === "step" ? entry.step.elapsed_ms : entry.elapsed_ms
  const elapsed = elapsedMs === null ? "" : `+${duration(elapsedMs)}`
  return (
    <>
      {newTry === null ? null : (
        <li class="try-divider" data-testid="timeline-try">
          try {newTry + 1}
        </li>
      )}
      <li class={`step step-${kind}`} data-testid="timeline-entry" data-kind={kind}>
        <span class="elapsed">{elapsed}</span>
        <div class="step-body">
          {entry.type === "call" ? (
            <CallLine call={entry.call} number={entry.number} />
          ) : (
            <StepBody step={entry.step} />
          )}
        </div>
      </li>
    </>
  )
}

export interface TimelineProps {
  readonly steps: ReadonlyArray<RolloutStep>
  readonly calls: ReadonlyArray<ModelCall>
}

/**
 * An agent's rollout as it happened: model turns with their tool calls, tool results, commands with their exit
 * codes and output, notes — with the model calls the interceptor saw between them. Tries are marked when a rollout
 * was retried.
 */
export const Timeline = ({ steps, calls }: TimelineProps) => {
  const entries = useMemo(() => timelineOf(steps, calls), [steps, calls])
  const tries = new Set(steps.map((step) => step.retry)).size
  let lastTry: number | null = null
  return (
    <ol class="timeline" data-testid="timeline">
      {entries.map((entry, index) => {
        const retry = entry.type === "step" ? entry.step.retry : null
        const newTry = tries > 1 && retry !== null && retry !== lastTry ? retry : null
        if (retry !== null) lastTry = retry
        return <Entry key={index} entry={entry} newTry={newTry} />
      })}
    </ol>
  )
}
