import { describe, expect, it } from "@effect/vitest"
import { withoutSecrets } from "../src/config/withoutSecrets.js"

describe("withoutSecrets", () => {
  it("drops secret-looking keys at any depth and keeps the rest", () => {
    const table = {
      model: "gpt-4o-mini",
      api_key: "sk-1",
      OPENAI_API_KEY: "sk-2",
      temperature: 0,
      nested: { auth_token: "t", keep: 1, "x-api-key": "k" },
      max_tokens: 100,
      keywords: ["a"],
    }
    expect(withoutSecrets(table)).toEqual({
      model: "gpt-4o-mini",
      temperature: 0,
      nested: { keep: 1 },
      max_tokens: 100,
      keywords: ["a"],
    })
  })
})
