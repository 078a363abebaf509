import { spawn } from "node:child_process"

/** The platform's own way to open a URL in the default browser. */
const opener = (url: string): readonly [string, ReadonlyArray<string>] => {
  switch (process.platform) {
    case "darwin":
      return ["open", [url]]
    case "win32":
      return ["cmd", ["/c", "start", "", url]]
    default:
      return ["xdg-open", [url]]
  }
}

/**
 * Opens `url` in a browser, failing softly: a machine without a browser or opener (a server, a container) gets a
 * line on `stderr` saying so, and the caller goes on serving.
 */
export const openInBrowser = (url: string, stderr: NodeJS.WritableStream): void => {
  const [command, args] = opener(url)
  const cannot = (why: string) => stderr.write(`could not open a browser (${command}: ${why}); open ${url} yourself\n`)
  try {
    const child = spawn(command, args, { detached: true, stdio: "ignore" })
    child.once("error", (error) => cannot(error.message))
    child.once("exit", (code) => {
      if (code !== 0 && code !== null) cannot(`exit code ${code}`)
    })
    child.unref()
  } catch (error) {
    cannot((error as Error).message)
  }
}
