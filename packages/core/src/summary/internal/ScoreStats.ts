import { passRateInterval95 } from "../Binomial.js"
import { tCritical95 } from "../StudentT.js"
import type { ScoreMetrics, StderrEstimator } from "../Summary.js"
import { GroupTotals } from "./GroupTotals.js"

/** Which rollouts are correlated: none (one rollout per seed), a seed's attempts, or a task field's values. */
export type Clustering =
  | { readonly _tag: "None" }
  | { readonly _tag: "Seed" }
  | { readonly _tag: "Key"; readonly key: string }

export const clusteringOf = (attempts: number, clusterBy: string | null | undefined): Clustering =>
  clusterBy !== null && clusterBy !== undefined && clusterBy !== ""
    ? { _tag: "Key", key: clusterBy }
    : attempts > 1
      ? { _tag: "Seed" }
      : { _tag: "None" }

const estimatorOf = (clustering: Clustering): StderrEstimator =>
  clustering._tag === "None"
    ? "clt"
    : clustering._tag === "Seed"
      ? "clustered_by_seed"
      : `clustered_by:${clustering.key}`

/**
 * Streaming score statistics: Welford's mean and variance for the CLT error, plus count and sum per seed
 * (when a seed can have several rollouts) and per cluster, which is all the clustered standard error and
 * the within-seed variance need. Scores themselves are never kept.
 */
export class ScoreStats {
  count = 0
  passed = 0
  private mean = 0
  private m2 = 0
  private min = Number.POSITIVE_INFINITY
  private max = Number.NEGATIVE_INFINITY
  private seedFallbacks = 0
  /** Every score so far 0 or 1: the mean is a proportion, and its interval Wilson's. */
  private binary = true
  /** Null with one attempt per seed: every rollout is then its own seed. */
  private readonly seeds: GroupTotals<number> | null
  /** Null for the CLT; the same object as `seeds` when clustering by seed. */
  private readonly clusters: GroupTotals<number | string> | null

  constructor(
    private readonly clustering: Clustering,
    attempts: number,
  ) {
    this.seeds = attempts > 1 ? new GroupTotals<number>() : null
    this.clusters =
      clustering._tag === "None"
        ? null
        : clustering._tag === "Seed" && this.seeds !== null
          ? this.seeds
          : new GroupTotals<number | string>()
  }

  /** `cluster` is the rollout's value of the `cluster_by` key; without one the rollout is its seed's cluster. */
  add(score: number, passed: boolean, seed: number, cluster: string | undefined): void {
    this.count++
    if (score !== 0 && score !== 1) this.binary = false
    if (passed) this.passed++
    const delta = score - this.mean
    this.mean += delta / this.count
    this.m2 += delta * (score - this.mean)
    if (score < this.min) this.min = score
    if (score > this.max) this.max = score
    this.seeds?.add(seed, score)
    if (this.clusters === null || this.clusters === this.seeds) return
    // A number key never meets a string key in a Map, so a seed's own cluster cannot merge with a value "3".
    if (this.clustering._tag === "Key" && cluster === undefined) this.seedFallbacks++
    this.clusters.add(cluster ?? seed, score)
  }

  summarize(): ScoreMetrics {
    const n = this.count
    const estimator = estimatorOf(this.clustering)
    if (n === 0) {
      return {
        count: 0,
        mean_score: null,
        stderr: null,
        ci95: null,
        interval: "student_t",
        pass_rate: null,
        min: null,
        max: null,
        estimator,
        n_seeds: 0,
        n_clusters: 0,
        df: null,
        seed_mean: null,
        seed_mean_sd: null,
        within_seed_share: null,
        seed_fallbacks: 0,
      }
    }
    const mean = this.mean
    const { stderr, clusters } = this.standardError()
    const df = stderr === null ? null : clusters - 1
    const interval = this.binary ? "wilson" : "student_t"
    const seeds = this.seedSpread()
    return {
      count: n,
      mean_score: mean,
      stderr,
      ci95: stderr === null || df === null ? null : this.interval95(mean, stderr, df),
      interval,
      pass_rate: this.passed / n,
      min: this.min,
      max: this.max,
      estimator,
      n_seeds: seeds.n,
      n_clusters: clusters,
      df,
      seed_mean: seeds.mean,
      seed_mean_sd: seeds.sd,
      within_seed_share: seeds.withinShare,
      seed_fallbacks: this.seedFallbacks,
    }
  }

  /**
   * Student's t around the mean; for pass/fail scores Wilson's, which stays inside [0, 1] and is not of zero width
   * when every rollout passed or failed: over the rollouts with z when they are independent, else over the effective
   * sample size p(1 − p) / stderr² (the clusters' count when every score is the same) with t on the clusters' df.
   */
  private interval95(mean: number, stderr: number, df: number): readonly [number, number] {
    if (!this.binary) {
      const half = tCritical95(df) * stderr
      return [mean - half, mean + half]
    }
    return passRateInterval95(mean, stderr, df, this.count, this.clusters?.size ?? null)
  }

  /**
   * CLT: s / √n with n − 1 df. Clustered (Miller 2024, Inspect's clustered stderr): with residual totals per
   * cluster g_c = Σ_{i∈c} (x_i − x̄), SE = √(C/(C−1) · Σ_c g_c²) / N with C − 1 df. Null below two clusters.
   */
  private standardError(): { readonly stderr: number | null; readonly clusters: number } {
    const n = this.count
    if (this.clusters === null) return { stderr: n > 1 ? Math.sqrt(this.m2 / (n - 1) / n) : null, clusters: n }
    const c = this.clusters.size
    if (c < 2) return { stderr: null, clusters: c }
    let sumSquares = 0
    this.clusters.forEach((count, sum) => {
      const g = sum - count * this.mean
      sumSquares += g * g
    })
    return { stderr: Math.sqrt((c / (c - 1)) * sumSquares) / n, clusters: c }
  }

  /**
   * Per-seed mean scores (over a seed's attempts): their mean and sample standard deviation, and the share
   * of the score variance that lies within seeds, 1 − Σ_s n_s (m_s − x̄)² / Σ_i (x_i − x̄)², the part that
   * more attempts would average away. The share is null when no seed has two scored rollouts, or when
   * every score is the same.
   */
  private seedSpread() {
    const n = this.count
    if (this.seeds === null) {
      return { n, mean: this.mean, sd: n > 1 ? Math.sqrt(this.m2 / (n - 1)) : null, withinShare: null }
    }
    const k = this.seeds.size
    let meanOfMeans = 0
    let repeated = false
    this.seeds.forEach((count, sum) => {
      meanOfMeans += sum / count / k
      if (count > 1) repeated = true
    })
    let squares = 0
    let between = 0
    this.seeds.forEach((count, sum) => {
      const m = sum / count
      squares += (m - meanOfMeans) ** 2
      between += count * (m - this.mean) ** 2
    })
    const withinShare = repeated && this.m2 > 0 ? Math.min(1, Math.max(0, 1 - between / this.m2)) : null
    return { n: k, mean: meanOfMeans, sd: k > 1 ? Math.sqrt(squares / (k - 1)) : null, withinShare }
  }
}
