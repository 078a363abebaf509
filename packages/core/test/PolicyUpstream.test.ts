import { describe, expect, it } from "@effect/vitest"
import { Redacted } from "effect"
import { describeUpstreamKey, modelKeyLine, policyUpstream } from "../src/interceptor/PolicyUpstream.js"

const LOCAL = "http://127.0.0.1:8001/v1"
const OPENAI = "https://api.openai.com/v1"
const FAKE_OPENAI_KEY = "sk-fake-openai-7Qx9"
const FAKE_PROCTOR_KEY = "fake-proctor-upstream-3Zt1"
const FAKE_POLICY_KEY = "fake-policy-key-8Wd2"

const policy = (inferenceUrl: string, extra: { provider?: string; api_key?: string } = {}) => ({
  provider: extra.provider ?? null,
  policy_config: { inference_url: inferenceUrl, ...(extra.api_key === undefined ? {} : { api_key: extra.api_key }) },
})

/** The description and the key actually sent, which must agree: a named source is sent, no source sends nothing. */
const decide = (settings: ReturnType<typeof policy>, env: Record<string, string>) => {
  const description = describeUpstreamKey(settings, env, { traced: true })
  const sent = policyUpstream(settings, env)?.apiKey ?? null
  expect(sent === null).toBe(description.source === null)
  for (const value of Object.values(env)) if (value !== "") expect(description.text).not.toContain(value)
  if (typeof settings.policy_config.api_key === "string")
    expect(description.text).not.toContain(settings.policy_config.api_key)
  return { ...description, sent: sent === null ? null : Redacted.value(sent) }
}

describe("which key goes to the policy's model", () => {
  it("the policy's api_key first, above every variable", () => {
    const d = decide(policy(LOCAL, { api_key: FAKE_POLICY_KEY }), {
      PROCTOR_UPSTREAM_API_KEY: FAKE_PROCTOR_KEY,
      OPENAI_API_KEY: FAKE_OPENAI_KEY,
    })
    expect(d).toMatchObject({ endpoint: LOCAL, source: "policy_config.api_key", sent: FAKE_POLICY_KEY })
    expect(d.text).toBe("key from policy_config.api_key (set in the policy)")
  })

  it("then PROCTOR_UPSTREAM_API_KEY, to any endpoint, loopback included", () => {
    const d = decide(policy(LOCAL), { PROCTOR_UPSTREAM_API_KEY: FAKE_PROCTOR_KEY, OPENAI_API_KEY: FAKE_OPENAI_KEY })
    expect(d).toMatchObject({ source: "PROCTOR_UPSTREAM_API_KEY", sent: FAKE_PROCTOR_KEY })
    expect(d.text).toContain("key from PROCTOR_UPSTREAM_API_KEY")
  })

  it("then the provider's variable, for a provider's own host or a named provider", () => {
    const byHost = decide(policy(OPENAI), { OPENAI_API_KEY: FAKE_OPENAI_KEY })
    expect(byHost).toMatchObject({ source: "OPENAI_API_KEY", sent: FAKE_OPENAI_KEY })
    expect(byHost.text).toBe("key from OPENAI_API_KEY (api.openai.com is provider openai's endpoint)")
    const named = decide(policy("https://gateway.example/v1", { provider: "groq" }), { GROQ_API_KEY: FAKE_OPENAI_KEY })
    expect(named).toMatchObject({ source: "GROQ_API_KEY", sent: FAKE_OPENAI_KEY })
    expect(named.text).toBe("key from GROQ_API_KEY (provider groq)")
  })

  it("an empty PROCTOR_UPSTREAM_API_KEY counts as unset, not as a key that hides the provider's", () => {
    const d = decide(policy(OPENAI), { PROCTOR_UPSTREAM_API_KEY: "", OPENAI_API_KEY: FAKE_OPENAI_KEY })
    expect(d).toMatchObject({ source: "OPENAI_API_KEY", sent: FAKE_OPENAI_KEY })
  })

  it("none, and why, when the provider's variable is not set", () => {
    const d = decide(policy(OPENAI), {})
    expect(d).toMatchObject({ source: null, sent: null })
    expect(d.text).toBe(
      "no key: OPENAI_API_KEY (api.openai.com is provider openai's endpoint) is not set; or set PROCTOR_UPSTREAM_API_KEY or policy_config.api_key to send one",
    )
  })

  it("none for a loopback URL without a provider, though OPENAI_API_KEY is set — and it says so", () => {
    const d = decide(policy(LOCAL), { OPENAI_API_KEY: FAKE_OPENAI_KEY })
    expect(d).toMatchObject({ endpoint: LOCAL, source: null, sent: null })
    expect(d.text).toBe(
      "no key: 127.0.0.1:8001 is not a known provider's endpoint (OPENAI_API_KEY is set but is sent only to its provider's endpoint); set PROCTOR_UPSTREAM_API_KEY or policy_config.api_key to send one",
    )
    expect(decide(policy(LOCAL), {}).text).toBe(
      "no key: 127.0.0.1:8001 is not a known provider's endpoint; set PROCTOR_UPSTREAM_API_KEY or policy_config.api_key to send one",
    )
  })

  it("none from proctor when the task app calls the model itself", () => {
    const untraced = describeUpstreamKey(policy(LOCAL), { OPENAI_API_KEY: FAKE_OPENAI_KEY }, { traced: false })
    expect(untraced).toEqual({
      endpoint: LOCAL,
      source: null,
      text: "called by the task app itself, not traced; proctor sends no model key",
    })
    const passed = describeUpstreamKey(policy(LOCAL, { api_key: FAKE_POLICY_KEY }), {}, { traced: false })
    expect(passed.source).toBe("policy_config.api_key")
    expect(passed.text).not.toContain(FAKE_POLICY_KEY)
  })

  it("the line a run starts with names the model, the interceptor and the key's source", () => {
    const env = { PROCTOR_UPSTREAM_API_KEY: FAKE_PROCTOR_KEY }
    expect(modelKeyLine(policy(LOCAL), env, "http://127.0.0.1:4000")).toBe(
      `model ${LOCAL} (calls traced through http://127.0.0.1:4000) — key from PROCTOR_UPSTREAM_API_KEY (sent to whatever inference_url is configured)`,
    )
    expect(modelKeyLine({ provider: null, policy_config: {} }, env, null)).toBe(
      "model of the task app's choosing — called by the task app itself, not traced; proctor sends no model key",
    )
  })
})
