import "server-only";
import { headers } from "next/headers";
import { env } from "@/lib/env.mjs";

/**
 * The public origin of this Ringside: PUBLIC_URL, else AUTH_URL, else what the request says
 * (x-forwarded-host/-proto behind a proxy, else host).
 */
export async function publicOrigin(): Promise<string> {
  const configured = env.PUBLIC_URL ?? env.AUTH_URL;
  if (configured) return new URL(configured).origin;
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? `localhost:${env.PORT}`;
  const proto = h.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? (host.startsWith("localhost") || host.startsWith("127.") ? "http" : "https");
  return `${proto}://${host}`;
}

/**
 * Whether a request reaches this Ringside over https: the configured public URL says so, or
 * the proxy in front does (x-forwarded-proto), or the request itself does. Used to mark
 * cookies `Secure`.
 */
export function servedOverHttps(req: Request): boolean {
  const configured = env.PUBLIC_URL ?? env.AUTH_URL;
  if (configured) return configured.startsWith("https:");
  const forwarded = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  if (forwarded) return forwarded === "https";
  return req.url.startsWith("https:");
}

/** The redirect URI to register with the ring developer portal. */
export function ringRedirectUri(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/api/auth/callback/ring`;
}
