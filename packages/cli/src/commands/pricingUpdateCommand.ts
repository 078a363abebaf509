import { DEFAULT_PRICES_URL, defaultPriceTablePath, updatePriceTable } from "@proctor/core"
import { Effect } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { PricingUpdateOptions } from "../program/pricing.js"

/**
 * `proctor pricing update [--url URL] [--file PATH]`: refreshes the local copy of the price table. Runs read that
 * copy when it exists (else the table bundled with genai-prices) and never fetch it themselves, so a run
 * offline is priced the same as the last update left it.
 */
export const pricingUpdateCommand = (options: PricingUpdateOptions, io: Io): Effect.Effect<ExitCode> =>
  Effect.gen(function* () {
    const url = options.url ?? io.env.PROCTOR_PRICES_URL ?? DEFAULT_PRICES_URL
    const path = options.file ?? defaultPriceTablePath(io.env)
    const updated = yield* updatePriceTable({ url, path })
    io.stdout.write(
      `prices as of ${updated.as_of}: ${updated.models} models of ${updated.providers} providers, kept in ${path}\n`,
    )
    return ExitCode.Ok
  }).pipe(
    Effect.catchTag("PriceTableError", (error) =>
      Effect.sync(() => {
        io.stderr.write(`proctor pricing update: ${error.message}; runs keep the table they had\n`)
        return ExitCode.Failed
      }),
    ),
  )
