/**
 * Names clients use for the big providers. Anything else (openrouter, vertex, bedrock, together…) is passed on
 * as written: the maintained table knows many such hosts by their own ids.
 */
export const providerAliases: Readonly<Record<string, string>> = {
  openai: "openai",
  azure: "openai",
  azure_openai: "openai",
  anthropic: "anthropic",
  claude: "anthropic",
  google: "google",
  gemini: "google",
  google_genai: "google",
  "google-genai": "google",
  groq: "groq",
}
