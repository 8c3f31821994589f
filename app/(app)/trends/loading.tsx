import { PageSkeleton } from "@/components/dashboard/page-skeleton";

export default function Loading() {
  return <PageSkeleton title="Trends" blocks={[288, 288]} />;
}
