import "server-only";
import type { SendResult } from "@/lib/alerts/channels/types";

// One careful POST to an address a person typed in (an ntfy server, a webhook receiver): http
// or https only, a bounded time, redirects never followed (a receiver that moved must be
// entered anew: following one blindly could carry a token or a signed body elsewhere), and the
// answer read only up to a small cap. Errors are worded for the person without the address.

export const SEND_TIMEOUT_MS = 10_000;
/** Bytes of a receiver's answer read at most (the rest is discarded unread). */
export const MAX_RESPONSE_BYTES = 4_096;

export type PostOptions = {
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
  signal?: AbortSignal;
};

async function readCapped(res: Response, cap: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let got = 0;
  try {
    while (got < cap) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.subarray(0, cap - got));
      got += Math.min(value.byteLength, cap - got);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A receiver's own short reason, when it answers JSON with `error` or `message` (ntfy does). */
function reasonOf(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: unknown; message?: unknown };
    const r = typeof j.error === "string" ? j.error : typeof j.message === "string" ? j.message : "";
    return r.replace(/[^\x20-\x7e]/g, "").slice(0, 120);
  } catch {
    return "";
  }
}

function networkError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; cause?: { code?: string; name?: string } };
  if (e?.name === "TimeoutError" || e?.cause?.name === "TimeoutError") return `no answer within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`;
  if (e?.name === "AbortError") return "stopped";
  switch (e?.cause?.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the server's name could not be resolved";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return "the connection was closed";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the server cannot be reached";
    case "UND_ERR_CONNECT_TIMEOUT":
      return "the connection timed out";
    default:
      if (e?.cause?.code && /CERT|SSL|TLS/.test(e.cause.code)) return `the server's TLS certificate was not accepted (${e.cause.code})`;
      return "the request failed";
  }
}

export async function postToReceiver(url: string, opts: PostOptions): Promise<SendResult> {
  const timeoutMs = opts.timeoutMs ?? SEND_TIMEOUT_MS;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, retry: false, error: "the address is not valid" };
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return { ok: false, retry: false, error: "only http and https addresses can be used" };
  const signals = [AbortSignal.timeout(timeoutMs), ...(opts.signal ? [opts.signal] : [])];
  let res: Response;
  try {
    res = await fetch(target, { method: "POST", headers: opts.headers, body: opts.body, redirect: "manual", signal: AbortSignal.any(signals), cache: "no-store" });
  } catch (err) {
    return { ok: false, retry: true, error: networkError(err, timeoutMs) };
  }
  let text = "";
  try {
    text = await readCapped(res, MAX_RESPONSE_BYTES);
  } catch {
    /* an answer cut short still has its status */
  }
  if (res.status >= 200 && res.status < 300) return { ok: true };
  if (res.status >= 300 && res.status < 400) {
    return { ok: false, retry: false, error: `the server answered with a redirect (HTTP ${res.status}); enter the address it points to` };
  }
  const reason = reasonOf(text);
  const retry = res.status === 408 || res.status === 425 || res.status === 429 || res.status >= 500;
  return { ok: false, retry, error: `the server answered HTTP ${res.status}${reason ? ` (${reason})` : ""}` };
}
