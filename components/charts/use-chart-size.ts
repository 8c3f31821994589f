"use client";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

const useIsoLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

/** The element's content width, kept up to date with a ResizeObserver (0 before mount). */
export function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T | null>(null);
  const [width, setWidth] = useState(0);
  useIsoLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(Math.round(el.getBoundingClientRect().width));
    const ro = new ResizeObserver((entries) => {
      const w = Math.round(entries[0]?.contentRect.width ?? 0);
      setWidth((prev) => (Math.abs(prev - w) >= 1 ? w : prev));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

/**
 * Sets data-chart-ready="true" on the chart's element once it has drawn with data (after the
 * commit that rendered it). The bench (e2e/bench/pages.ts) measures navigation → this attribute.
 */
export function useChartReady<T extends Element>(ready: boolean) {
  const ref = useRef<T | null>(null);
  // after every commit: the element may have been replaced (e.g. a client re-render after
  // hydration), and the new one must carry the mark too
  useEffect(() => {
    if (ready && ref.current && !ref.current.hasAttribute("data-chart-ready")) ref.current.setAttribute("data-chart-ready", "true");
  });
  return useCallback((el: T | null) => {
    ref.current = el;
  }, []);
}
