"use client";
import { useRouter } from "next/navigation";
import { retryButtonClass } from "@/components/ui/retry-button-class";

/** "Try again" for a part of a page rendered on the server: renders the page again (router.refresh). */
export function RefreshButton() {
  const router = useRouter();
  return (
    <button type="button" onClick={() => router.refresh()} className={retryButtonClass}>
      Try again
    </button>
  );
}
