import { defineConfig } from "vitest/config"

export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "examples/*/test/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "bench/*/test/**/*.test.ts",
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most files wait on processes, servers and browsers more than they compute: two at once on two cores took
    // the suite from 782 s to 645 s (vitest runs one at a time on two cores by default).
    maxWorkers: 2,
    // A worker runs its files one after another in one module graph: each file no longer loads Effect and the
    // packages' sources afresh (that load was a fifth of the suite's time). Tests restore what they change (env,
    // timers, cwd), as they must.
    isolate: false,
    reporters: ["default", "./scripts/closingLineReporter.ts"],
    // Fails the run when a test wrote into the checkout (every test writes under its own temporary directory).
    globalSetup: ["./scripts/checkoutUntouched.ts"],
  },
})
