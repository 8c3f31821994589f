import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/app/providers";
import { ThemeScript } from "@/components/ui/theme-script";
import "@/app/globals.css";

export const metadata: Metadata = {
  title: { default: "Ringside", template: "%s · Ringside" },
  description: "Your ring's sleep, readiness and activity, on your own server.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <ThemeScript />
      </head>
      <body className="min-h-screen font-sans">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
