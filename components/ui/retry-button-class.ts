import { cn } from "@/components/ui/cn";

/** The look of an error's "Try again" button: ErrorState's own, and RefreshButton (its own module, so the button does not bring the states into the page). */
export const retryButtonClass = cn(
  "mt-2 rounded-md bg-rose-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-rose-700",
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-rose-600",
);
