"use client";
import { useEffect, useRef } from "react";

/**
 * Sets data-chart-ready="true" on a recharts wrapper once its SVG surface exists (recharts
 * draws after ResponsiveContainer has measured, a frame or two after mount).
 */
export function useRechartsReady<T extends HTMLElement>(hasData: boolean) {
  const ref = useRef<T | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !hasData) return;
    const mark = () => {
      if (el.querySelector("svg.recharts-surface")) {
        el.setAttribute("data-chart-ready", "true");
        return true;
      }
      return false;
    };
    if (mark()) return;
    const mo = new MutationObserver(() => {
      if (mark()) mo.disconnect();
    });
    mo.observe(el, { childList: true, subtree: true });
    return () => mo.disconnect();
  }, [hasData]);
  return ref;
}
