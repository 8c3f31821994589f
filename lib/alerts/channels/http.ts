import "server-only";
import http from "node:http";
import https from "node:https";
import { addressPolicy, BlockedAddressError, guardedLookup, hostOf, isAllowedLiteral, type AddressPolicy } from "@/lib/alerts/channels/address";
import type { SendResult } from "@/lib/alerts/channels/types";

// One careful POST to an address a person typed in (an ntfy server, a webhook receiver): http
// or https only, a bounded time, redirects never followed (a receiver that moved must be
// entered anew: following one blindly could carry a token or a signed body elsewhere), the
// address connected to checked (address.ts), and the answer read only up to a small cap and
// never shown. Errors are worded for the person without the address.

export const SEND_TIMEOUT_MS = 10_000;
/** Bytes of a receiver's answer read at most (the rest is discarded unread). */
export const MAX_RESPONSE_BYTES = 4_096;

export type PostOptions = {
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
  signal?: AbortSignal;
};

/** The answer's status, and at most `cap` bytes of its body (the rest is not read: the socket is dropped). */
function request(target: URL, opts: PostOptions, policy: AddressPolicy, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = target.protocol === "https:" ? https.request : http.request;
    const req = send(target, {
      method: "POST",
      headers: { ...opts.headers, "content-length": String(Buffer.byteLength(opts.body)) },
      // the address actually connected to is checked at connect time (address.ts)
      lookup: guardedLookup(hostOf(target), policy) as never,
      agent: false,
      signal,
    });
    req.on("error", reject);
    req.on("response", (res) => {
      let got = 0;
      res.on("data", (chunk: Buffer) => {
        got += chunk.byteLength;
        if (got >= MAX_RESPONSE_BYTES) res.destroy();
      });
      // the status is all a sender keeps; an answer cut short still has it
      const done = () => resolve(res.statusCode ?? 0);
      res.on("end", done);
      res.on("close", done);
      res.on("error", done);
    });
    req.end(opts.body);
  });
}

/** What went wrong, for the person: never the address, never what the receiver said. */
function networkError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; cause?: { code?: string; name?: string } };
  if (e?.name === "TimeoutError" || e?.cause?.name === "TimeoutError")
    return `no answer within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`;
  if (e?.name === "AbortError") return "stopped";
  const code = e?.code ?? e?.cause?.code;
  switch (code) {
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
      if (code && /CERT|SSL|TLS/.test(code)) return `the server's TLS certificate was not accepted (${code})`;
      return "the request failed";
  }
}

export const BLOCKED_MESSAGE =
  "the address is on this server or its private network, where alerts are not sent (the owner can allow it with ALERT_ALLOWED_PRIVATE_HOSTS)";

/**
 * One POST. `policy` says which private addresses the owner allows (ALERT_ALLOWED_PRIVATE_HOSTS);
 * every other non-public address is refused, checked on the address connected to.
 */
export async function postToReceiver(url: string, opts: PostOptions, policy: AddressPolicy = addressPolicy()): Promise<SendResult> {
  const timeoutMs = opts.timeoutMs ?? SEND_TIMEOUT_MS;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, retry: false, error: "the address is not valid" };
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return { ok: false, retry: false, error: "only http and https addresses can be used" };
  if (!isAllowedLiteral(target, policy)) return { ok: false, retry: false, error: BLOCKED_MESSAGE };
  const signals = [AbortSignal.timeout(timeoutMs), ...(opts.signal ? [opts.signal] : [])];
  let status: number;
  try {
    status = await request(target, opts, policy, AbortSignal.any(signals));
  } catch (err) {
    if (err instanceof BlockedAddressError || (err as { cause?: unknown }).cause instanceof BlockedAddressError)
      return { ok: false, retry: false, error: BLOCKED_MESSAGE };
    return { ok: false, retry: true, error: networkError(err, timeoutMs) };
  }
  if (status >= 200 && status < 300) return { ok: true };
  if (status >= 300 && status < 400) {
    return { ok: false, retry: false, error: `the server answered with a redirect (HTTP ${status}); enter the address it points to` };
  }
  // the status only: what a receiver says back is never shown (it could be anything it serves)
  const retry = status === 408 || status === 425 || status === 429 || status >= 500;
  return { ok: false, retry, error: `the server answered HTTP ${status}` };
}
