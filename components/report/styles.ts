// The report page's buttons and links that look like buttons (the page, a share link's page, the chooser).
import { cn } from "@/components/ui/cn";

const FOCUS = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

export const primaryAction = cn("inline-block rounded-lg bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700", FOCUS);

export const secondaryAction = cn(
  "rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-50",
  "dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800",
  FOCUS,
);
