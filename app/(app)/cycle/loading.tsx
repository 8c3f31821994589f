import { PageSkeleton } from "@/components/dashboard/page-skeleton";

export default function Loading() {
  return <PageSkeleton title="Cycle" blocks={[120, 280, 200]} />;
}
