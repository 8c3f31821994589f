import Link from "next/link";
import { NavLinks } from "@/components/ui/nav-links";
import { cn } from "@/components/ui/cn";

const LINKS = [
  { href: "/", label: "Today" },
  { href: "/trends", label: "Trends" },
  { href: "/workouts", label: "Workouts" },
  { href: "/calendar", label: "Calendar" },
  { href: "/correlations", label: "Correlations" },
  { href: "/notes", label: "Notes" },
  { href: "/report", label: "Report" },
  { href: "/sync", label: "Sync" },
  { href: "/settings", label: "Settings" },
] as const;
/** The Cycle view's link, after the Calendar's: only for a person with cycle tracking on. */
const CYCLE_LINK = { href: "/cycle", label: "Cycle" };
const withCycle = LINKS.flatMap((l) => (l.href === "/calendar" ? [l, CYCLE_LINK] : [l]));

export function AppNav({ isDemo, userLabel, showCycle = false }: { isDemo: boolean; userLabel: string; showCycle?: boolean }) {
  return (
    <header className="border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90 print:hidden">
      <a
        href="#main"
        className={cn(
          "sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2",
          "focus:text-sm focus:font-medium focus:text-slate-900 focus:shadow-lg dark:focus:bg-slate-900 dark:focus:text-white",
        )}
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2 sm:px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
          <span aria-hidden className="inline-block h-5 w-5 rounded-full border-4 border-brand-600" />
          Ringside
        </Link>
        {isDemo && (
          <span
            data-testid="demo-badge"
            className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-200"
            title="Connected to the built-in ring emulator with generated data"
          >
            Demo
          </span>
        )}
        <nav aria-label="Main" className="order-last -mx-1 flex w-full flex-wrap gap-x-0.5 gap-y-1 sm:order-none sm:w-auto">
          <NavLinks links={showCycle ? withCycle : LINKS} />
        </nav>
        <span className="ml-auto min-w-0 break-all text-xs text-slate-500 dark:text-slate-400" title={userLabel}>
          {userLabel}
        </span>
      </div>
    </header>
  );
}
