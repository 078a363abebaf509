// Injected into the CLI's CommonJS bundles (build.mjs: dist/bin.cjs and the scripts): import.meta for the modules
// bundled into them, from the `require` and `__filename` that Node or a script's wrapper gives them.
import { pathToFileURL } from "node:url"

export const __importMetaUrl = pathToFileURL(__filename).href
export const __importMetaResolve = (specifier: string): string => pathToFileURL(require.resolve(specifier)).href
