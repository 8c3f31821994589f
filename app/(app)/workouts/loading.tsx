import { PageSkeleton } from "@/components/dashboard/page-skeleton";

export default function Loading() {
  return <PageSkeleton title="Workouts" blocks={[260, 320]} />;
}
