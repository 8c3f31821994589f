"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

/** The main navigation links; the current page's link is marked (aria-current). */
export function NavLinks({ links }: { links: ReadonlyArray<{ href: string; label: string }> }) {
  const path = usePathname() ?? "/";
  const isActive = (href: string) =>
    (href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`)) || (href === "/calendar" && path.startsWith("/day/"));
  return (
    <>
      {links.map((l) => {
        const active = isActive(l.href);
        return (
          <Link
            key={l.href}
            href={l.href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "whitespace-nowrap rounded-md px-1.5 py-1 text-[13px] font-medium sm:px-2 sm:text-sm",
              "focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600",
              active
                ? "bg-slate-900 text-white dark:bg-white dark:text-slate-900"
                : "text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
            )}
          >
            {l.label}
          </Link>
        );
      })}
    </>
  );
}
