import { cn } from "@/components/ui/cn";

/** A grey placeholder block while data loads (announced once by the page's status text). */
export function Skeleton({ className, style }: { className?: string; style?: React.CSSProperties }) {
  return <div aria-hidden style={style} className={cn("animate-pulse rounded-lg bg-slate-200/70 motion-reduce:animate-none dark:bg-slate-800", className)} />;
}
