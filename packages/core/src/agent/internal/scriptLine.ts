/**
 * The shell line that runs a script at an absolute sandbox path (`/tests/test.sh`, `/solution/solve.sh`) with bash,
 * or sh where the image has no bash. `$SANDBOX_ROOT` is empty in a container and the local runtime's root
 * elsewhere (see LocalRuntime), so the same line runs in every runtime.
 */
export const runScriptLine = (sandboxPath: string): string => {
  const quoted = `"$SANDBOX_ROOT${sandboxPath}"`
  return `if command -v bash >/dev/null 2>&1; then exec bash ${quoted}; else exec sh ${quoted}; fi`
}
