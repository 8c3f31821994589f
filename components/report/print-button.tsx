"use client";

import { secondaryAction } from "@/components/report/styles";

/** Opens the browser's print dialog (the page's print stylesheet leaves out the navigation and the controls). */
export function PrintButton() {
  return (
    <button type="button" onClick={() => window.print()} className={secondaryAction}>
      Print
    </button>
  );
}
