import { hostname } from "node:os"
import { describe, expect, it } from "@effect/vitest"
import { openerMayRun, openerProcess } from "../src/internal/openerProcess.js"
import { processStartTime } from "../src/internal/processTree.js"

describe("a sandbox's opening process, as its label names it", () => {
  it("this process may run; one that ended, a reused pid, or no label at all may not; another host's is left be", () => {
    expect(openerProcess()).toBe(`${hostname()}/${process.pid}/${processStartTime(process.pid)}`)
    expect(openerMayRun(openerProcess())).toBe(true)
    // The same pid with another start time: the pid was reused, the opener is gone.
    expect(openerMayRun(`${hostname()}/${process.pid}/1`)).toBe(false)
    expect(openerMayRun(`${hostname()}/4194304/123`)).toBe(false)
    expect(openerMayRun(undefined)).toBe(false)
    expect(openerMayRun("")).toBe(false)
    expect(openerMayRun(`another-${hostname()}/1/1`)).toBe(true)
  })
})
