/**
 * The bare proxy (bench/shared's bareProxy.ts) in front of the model, its own process: every POST goes on to the
 * model's origin under the same path. The bare loop driven through it is the least an eval that intercepts its
 * model calls can take here: the bare loop plus one proxy hop, with nothing recorded.
 *
 * `node dist/bareProxyMain.js MODEL_BASE_URL`; prints `{"url": …}` once it listens.
 */
import { bareUpstream, startBareProxy } from "@proctor/bench-shared/bareProxy"

const upstream = bareUpstream(new URL(process.argv[2] ?? "").origin)
const { url } = await startBareProxy((path) => ({ pool: upstream, path }))
process.stdout.write(`${JSON.stringify({ url })}\n`)
