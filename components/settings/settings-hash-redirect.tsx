"use client";
import { useEffect } from "react";
import { useRouter } from "next/navigation";
import { settingsHrefForAnchor } from "@/lib/settings-sections";

/**
 * The one-page Settings' addresses keep working: /settings#alerts opens /settings/alerts, and
 * /settings#sleep-need the Signals section at its field (lib/settings-sections.ts says where each
 * anchor lives). A hash never reaches the server, so the browser moves on once the page is in.
 */
export function SettingsHashRedirect() {
  const router = useRouter();
  useEffect(() => {
    const move = () => {
      const href = settingsHrefForAnchor(window.location.hash);
      if (href) router.replace(href);
    };
    move();
    // an old link followed while /settings is open changes only the hash
    window.addEventListener("hashchange", move);
    return () => window.removeEventListener("hashchange", move);
  }, [router]);
  return null;
}
