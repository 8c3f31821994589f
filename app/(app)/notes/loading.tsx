import { PageSkeleton } from "@/components/dashboard/page-skeleton";

export default function Loading() {
  return <PageSkeleton title="Notes & tags" blocks={[240, 320]} />;
}
