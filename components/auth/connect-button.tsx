"use client";

import { useFormStatus } from "react-dom";
import { cn } from "@/components/ui/cn";

/** Submit button of a server-action form, disabled while the action runs. */
export function ConnectButton({
  label,
  pendingLabel = "Connecting…",
  variant = "primary",
}: {
  label: string;
  pendingLabel?: string;
  variant?: "primary" | "secondary" | "danger";
}) {
  const { pending } = useFormStatus();
  const styles = {
    primary: "bg-brand-600 text-white hover:bg-brand-700",
    secondary:
      "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
    danger: "bg-red-600 text-white hover:bg-red-700",
  }[variant];
  return (
    <button
      type="submit"
      disabled={pending}
      aria-disabled={pending}
      className={cn(
        "w-full rounded-lg px-4 py-3 font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
        "disabled:opacity-60 sm:w-auto",
        styles,
      )}
    >
      {pending ? pendingLabel : label}
    </button>
  );
}
