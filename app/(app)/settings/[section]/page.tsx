import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/services/auth/session";
import { settingsSection } from "@/lib/settings-sections";
import { SettingsSectionContent } from "@/app/(app)/settings/section-content";

export async function generateMetadata({ params }: { params: Promise<{ section: string }> }): Promise<Metadata> {
  const s = settingsSection((await params).section);
  return { title: s ? `${s.title} · Settings` : "Settings" };
}

// /settings/<section>: one section of Settings (lib/settings-sections.ts), with a way back to the
// list on a phone (on a desktop the list is the layout's side column).
export default async function SettingsSectionPage({ params }: { params: Promise<{ section: string }> }) {
  const section = settingsSection((await params).section);
  if (!section) notFound();
  const user = await requireUser();
  return (
    <>
      <Link href="/settings" className="inline-block text-sm font-medium underline underline-offset-2 md:hidden">
        ‹ All settings
      </Link>
      <SettingsSectionContent slug={section.slug} user={user} />
    </>
  );
}
