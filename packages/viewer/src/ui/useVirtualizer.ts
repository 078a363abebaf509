import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
  type VirtualizerOptions,
} from "@tanstack/virtual-core"
import type { RefObject } from "preact"
import { useLayoutEffect, useReducer, useState } from "preact/hooks"

/** TanStack Virtual's core bound to a Preact component, as its React adapter does it: only visible rows are in the DOM. */
export const useVirtualizer = (
  count: number,
  rowHeight: number,
  scrollElement: RefObject<HTMLElement | null>,
): Virtualizer<HTMLElement, Element> => {
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  const options: VirtualizerOptions<HTMLElement, Element> = {
    count,
    getScrollElement: () => scrollElement.current,
    estimateSize: () => rowHeight,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    overscan: 12,
    onChange: () => rerender(0),
  }
  const [virtualizer] = useState(() => new Virtualizer(options))
  virtualizer.setOptions(options)
  useLayoutEffect(() => virtualizer._didMount(), [])
  useLayoutEffect(() => virtualizer._willUpdate())
  return virtualizer
}
