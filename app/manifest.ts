import type { MetadataRoute } from "next";

// The web app manifest (/manifest.webmanifest): Ringside opens from a phone's home screen as
// an app of its own. Icons are committed files (public/icons, app/favicon.ico,
// app/apple-icon.png). There is no service worker: nothing of a person's data is cached on the
// device beyond what the browser holds for the open page.
export default function manifest(): MetadataRoute.Manifest {
  return {
    id: "/",
    name: "Ringside",
    short_name: "Ringside",
    description: "Your ring's sleep, readiness and activity, on your own server.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "any",
    background_color: "#f8fafc",
    theme_color: "#2563eb",
    categories: ["health", "lifestyle"],
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
