// The page every address answers while the database is away (proxy.ts): short, in the app's
// colours (light and dark), reloading itself while Ringside retries. Plain HTML with its style
// inline: it must not need the database, the app's scripts or anything else to be served.
import type { OutageKind } from "@/lib/http/outage";

const TEXT: Record<OutageKind, { title: string; body: string }> = {
  unreachable: {
    title: "The database is not reachable",
    body: "Ringside cannot read or store anything right now. It retries on its own, and this page reloads itself; nothing you stored is lost.",
  },
  full: {
    title: "The disk is full",
    body: "Ringside cannot store anything until space is freed on its server. Reading works; this page reloads itself.",
  },
};

export function outagePageHtml(kind: OutageKind, retryAfterS: number): string {
  const t = TEXT[kind];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${retryAfterS}"><title>${t.title} · Ringside</title>
<style>
  :root { color-scheme: light dark; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; font-family: ui-sans-serif, system-ui, sans-serif;
         background: #f8fafc; color: #0f172a; }
  main { max-width: 28rem; margin: 1.5rem; padding: 1.5rem; border-radius: 0.75rem; background: #fff; border: 1px solid #e2e8f0; }
  h1 { font-size: 1.125rem; margin: 0 0 0.5rem; } p { margin: 0; line-height: 1.5; color: #475569; font-size: 0.875rem; }
  .brand { font-weight: 600; color: #2563eb; margin-bottom: 0.75rem; font-size: 0.875rem; }
  @media (prefers-color-scheme: dark) {
    body { background: #020617; color: #f1f5f9; } main { background: #0f172a; border-color: #1e293b; } p { color: #94a3b8; } .brand { color: #3b82f6; }
  }
</style></head>
<body><main role="alert"><div class="brand">Ringside</div><h1>${t.title}</h1><p>${t.body}</p></main></body></html>
`;
}
