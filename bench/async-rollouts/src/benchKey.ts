/** The key the bench's task app checks and the bench's `proctor eval` presents (loopback only). */
export const BENCH_KEY = "async-rollouts-bench-key"
