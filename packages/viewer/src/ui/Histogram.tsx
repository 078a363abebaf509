import { useEffect, useRef } from "preact/hooks"
import "uplot/dist/uPlot.min.css"
import { grouped } from "./format.js"

const BINS = 20

/** Counts of `values` in equal-width bins over their range; one bin per value when there are few distinct ones. */
export const binValues = (
  values: ArrayLike<number>,
): { readonly x: Array<number>; readonly counts: Array<number>; readonly width: number } => {
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!
    if (value < min) min = value
    if (value > max) max = value
  }
  if (values.length === 0) return { x: [], counts: [], width: 1 }
  if (min === max) return { x: [min], counts: [values.length], width: 1 }
  const width = (max - min) / BINS
  const counts = new Array<number>(BINS).fill(0)
  for (let i = 0; i < values.length; i++) counts[Math.min(BINS - 1, Math.floor((values[i]! - min) / width))]!++
  return { x: counts.map((_, bin) => min + (bin + 0.5) * width), counts, width }
}

export interface HistogramProps {
  readonly title: string
  readonly unit: string
  readonly values: ArrayLike<number>
  readonly testId: string
}

/** A distribution as bars (uPlot: small, and fast with any number of values since it draws the bins, not the points). */
export const Histogram = ({ title, unit, values, testId }: HistogramProps) => {
  const target = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = target.current
    if (element === null || values.length === 0) return
    const { x, counts, width } = binValues(values)
    const half = width / 2
    let plot: { destroy(): void } | null = null
    let removed = false
    // uPlot sets up Intl formatters as it loads (~60 ms of ICU in a fresh page): it loads with the first chart
    // drawn, not with the page, whose table then shows ~60 ms sooner.
    void import("uplot").then(({ default: uPlot }) => {
      if (removed) return
      const bars = uPlot.paths.bars?.({ size: [0.9, 64] })
      plot = new uPlot(
        {
          width: 340,
          height: 180,
          legend: { show: false },
          cursor: { show: true, points: { show: false } },
          scales: {
            x: { time: false, range: () => [x[0]! - half, x[x.length - 1]! + half] },
            y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
          },
          axes: [
            { label: unit, size: 36 },
            { label: "rollouts", size: 48 },
          ],
          series: [
            {},
            {
              label: "rollouts",
              fill: "#4c78a8aa",
              stroke: "#4c78a8",
              ...(bars === undefined ? {} : { paths: bars }),
              points: { show: false },
            },
          ],
        },
        [x, counts],
        element,
      )
    })
    return () => {
      removed = true
      plot?.destroy()
    }
  }, [values, unit])
  return (
    <figure class="chart" data-testid={testId}>
      <figcaption>
        {title} <small>({grouped(values.length)} rollouts)</small>
      </figcaption>
      {values.length === 0 ? <p class="empty">no values</p> : <div ref={target} />}
    </figure>
  )
}
