import { isRecord } from "../../internal/isRecord.js"
import type { JsonRecord } from "./json.js"

const INCLUDE_USAGE = Buffer.from(',"stream_options":{"include_usage":true}')
const CLOSING_BRACE = 0x7d

/**
 * The body of a streamed chat request, asking for the usage chunk: `request` (the parsed `body`, a JSON object)
 * with `stream_options.include_usage` set. When the client sent no `stream_options`, the member is added to the
 * client's own bytes before the object's last brace (only whitespace may follow it, and `stream` makes the
 * object non-empty): the JSON value and key order `JSON.stringify` would give, without serialising the request
 * again. Options the client did send are merged, as before.
 */
export const withIncludeUsage = (body: Buffer, request: JsonRecord): Buffer | string => {
  const options = request.stream_options
  if (options === undefined) {
    const end = body.lastIndexOf(CLOSING_BRACE)
    return Buffer.concat([body.subarray(0, end), INCLUDE_USAGE, body.subarray(end)])
  }
  return JSON.stringify({ ...request, stream_options: { ...(isRecord(options) ? options : {}), include_usage: true } })
}
