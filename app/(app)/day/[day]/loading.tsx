import { PageSkeleton } from "@/components/dashboard/page-skeleton";

export default function Loading() {
  return <PageSkeleton title="Day" blocks={[120, 300, 360]} />;
}
