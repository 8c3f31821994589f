import { Skeleton } from "@/components/ui/skeleton";

/** The shape of a dashboard page while its server part renders (used by loading.tsx files). */
export function PageSkeleton({ title, blocks = [288, 200] }: { title: string; blocks?: number[] }) {
  return (
    <div className="space-y-4" role="status" aria-label={`Loading ${title}`}>
      <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
      <Skeleton className="h-9 w-full max-w-md" />
      {blocks.map((h, i) => (
        <Skeleton key={i} className="w-full" style={{ height: h }} />
      ))}
    </div>
  );
}
