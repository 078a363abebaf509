const splitList = (value: string | undefined): string[] =>
  (value ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")

/**
 * The keys a task app accepts when its definition names none, resolved as synth-ai does:
 * `ENVIRONMENT_API_KEY`, else its dev fallbacks, plus every key in `ENVIRONMENT_API_KEY_ALIASES`.
 */
export const environmentApiKeys = (env: NodeJS.ProcessEnv = process.env): string[] => {
  const primary = [env.ENVIRONMENT_API_KEY, env.DEV_ENVIRONMENT_API_KEY, env.dev_environment_api_key].find(
    (key) => key !== undefined && key.trim() !== "",
  )
  return [...new Set([...(primary === undefined ? [] : [primary]), ...splitList(env.ENVIRONMENT_API_KEY_ALIASES)])]
}
