/** How the RESULTS.md tables write their figures. */
export const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "–")
export const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1)
export const int = (x: number) => Math.round(x).toLocaleString("en-US")
export const cores = (x: number) => x.toFixed(2)
export const ratio = (x: number) => `${x.toFixed(2)}×`
export const verdict = (met: boolean) => (met ? "**met**" : "**missed**")
