"use client";
// The readiness mark of a chart drawn on the server (the Today page's sparklines and the page
// itself): the element gets data-chart-ready="true" once hydrated, as the browser-drawn charts
// set it once drawn (use-chart-size.ts). The specs and the bench wait for it.
import type { ComponentPropsWithoutRef } from "react";
import { useChartReady } from "@/components/charts/use-chart-size";

/** An <svg> marked ready once hydrated; its drawing comes from the server. */
export function ReadySvg(props: ComponentPropsWithoutRef<"svg">) {
  const ref = useChartReady<SVGSVGElement>(true);
  return <svg ref={ref} {...props} />;
}

/** A <div> marked ready once hydrated (a page of server-drawn charts). */
export function ReadyDiv(props: ComponentPropsWithoutRef<"div">) {
  const ref = useChartReady<HTMLDivElement>(true);
  return <div ref={ref} {...props} />;
}
