"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { settingsHref, type SettingsSectionEntry } from "@/lib/settings-sections";
import { cn } from "@/components/ui/cn";

const focus = "focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600";

/** The section shown at a path: /settings/<slug>, or the first section at /settings itself. */
function currentSlug(path: string, sections: readonly SettingsSectionEntry[]): string | null {
  if (path === "/settings") return sections[0]?.slug ?? null;
  const m = /^\/settings\/([^/]+)/.exec(path);
  return m ? m[1]! : null;
}

/**
 * The list of Settings' sections (lib/settings-sections.ts): a side column beside the section on
 * a desktop ("side"), or the list page a phone opens at /settings ("list", each with its one-line
 * description). The section shown is marked (aria-current).
 */
export function SettingsNav({ sections, variant, className }: { sections: readonly SettingsSectionEntry[]; variant: "side" | "list"; className?: string }) {
  const current = currentSlug(usePathname() ?? "/settings", sections);
  return (
    <nav aria-label="Settings sections" className={className}>
      <ul
        className={
          variant === "side"
            ? "space-y-0.5"
            : "divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
        }
      >
        {sections.map((s) => {
          const active = s.slug === current;
          return (
            <li key={s.slug}>
              {variant === "side" ? (
                <Link
                  href={settingsHref(s.slug)}
                  aria-current={active ? "page" : undefined}
                  className={cn(
                    "block rounded-md px-2.5 py-1.5 text-sm font-medium",
                    focus,
                    active
                      ? "bg-slate-900 text-white dark:bg-white dark:text-slate-900"
                      : "text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
                  )}
                >
                  {s.title}
                </Link>
              ) : (
                <Link href={settingsHref(s.slug)} className={cn("flex items-center justify-between gap-3 px-4 py-3", focus)}>
                  <span className="min-w-0">
                    <span className="block text-sm font-semibold">{s.title}</span>
                    <span className="block text-xs text-slate-600 dark:text-slate-300">{s.description}</span>
                  </span>
                  <span aria-hidden className="text-slate-500 dark:text-slate-400">
                    ›
                  </span>
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
