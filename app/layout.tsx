import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { headers } from "next/headers";
import { ThemeScript } from "@/components/ui/theme-script";
import "@/app/globals.css";

export const metadata: Metadata = {
  title: { default: "Ringside", template: "%s · Ringside" },
  description: "Your ring's sleep, readiness and activity, on your own server.",
  applicationName: "Ringside",
  // manifest, favicon.ico and apple-icon.png are picked up from app/ by their file names
  appleWebApp: { capable: true, title: "Ringside", statusBarStyle: "default" },
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  // the browser's bar in the app's colours: light and dark
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f8fafc" },
    { media: "(prefers-color-scheme: dark)", color: "#020617" },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // the page's nonce (proxy.ts): each page is rendered per request, its scripts carrying it
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <ThemeScript nonce={nonce} />
      </head>
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
