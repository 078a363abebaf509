import type { Command } from "commander"
import { addFlags, type FlagValues, text } from "./flagTable.js"
import type { RunCommand } from "./RunCommand.js"

export const pricingUpdateFlags = {
  url: text(
    "--url <url>",
    "where to fetch the table (default PROCTOR_PRICES_URL, else genai-prices' published data.json)",
  ),
  file: text("--file <path>", "where to keep it (default PROCTOR_PRICES_FILE, else ~/.cache/proctor/prices.json)"),
}
export type PricingUpdateOptions = FlagValues<typeof pricingUpdateFlags>

/** Declares `proctor pricing update`; its implementation (commands/pricingUpdateCommand.ts) loads when it runs. */
export const registerPricingCommands = (program: Command, run: RunCommand): void => {
  const pricing = program.command("pricing").description("the model price table runs are priced from")
  addFlags(
    pricing
      .command("update")
      .description("fetch the current @pydantic/genai-prices table and keep it for later runs, offline ones too"),
    pricingUpdateFlags,
  ).action((options: PricingUpdateOptions) =>
    run(async (io) => (await import("../commands/pricingUpdateCommand.js")).pricingUpdateCommand(options, io)),
  )
}
