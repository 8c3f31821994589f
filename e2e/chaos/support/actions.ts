// Calling server actions the way a browser does (POST to a page with the `Next-Action` header
// and the arguments in React's reply encoding) — or the way an attacker might not.
import type { Browser } from "./browser";

/** One argument: a JSON value, or form fields (sent as FormData). */
export type ActionArg = { json: unknown } | { form: Array<[string, string]> };

export type ActionAnswer = { status: number; contentType: string; text: string; result: unknown; error: boolean; redirect: string | null };

/** The reply encoding React uses for action arguments (encodeReply): JSON, a FormData argument as "$K<n>" with its fields under "_<n>_". */
export function encodeArgs(args: ActionArg[]): { body: string | FormData; contentType?: string } {
  if (args.every((a) => "json" in a)) return { body: JSON.stringify(args.map((a) => (a as { json: unknown }).json)), contentType: "text/plain;charset=UTF-8" };
  const fd = new FormData();
  let ref = 0;
  const model = args.map((a) => {
    if ("json" in a) return a.json;
    ref++;
    for (const [k, v] of a.form) fd.append(`_${ref}_${k}`, v);
    return `$K${ref.toString(16)}`;
  });
  fd.append("0", JSON.stringify(model));
  return { body: fd };
}

/** Parses an action's Flight answer: row 1 is the result (or an error row "1:E{...}"). */
export function parseFlight(text: string): { result: unknown; error: boolean } {
  const row = text.split("\n").find((l) => l.startsWith("1:"));
  if (!row) return { result: undefined, error: false };
  const payload = row.slice(2);
  if (payload.startsWith("E")) return { result: JSON.parse(payload.slice(1)), error: true };
  try {
    return { result: JSON.parse(payload), error: false };
  } catch {
    return { result: payload, error: false };
  }
}

export async function callAction(
  browser: Browser,
  opts: { id: string; page: string; args?: ActionArg[]; raw?: { body: string | FormData | Uint8Array; contentType?: string }; origin?: string | null },
): Promise<ActionAnswer> {
  const enc = opts.raw ?? encodeArgs(opts.args ?? []);
  const headers: Record<string, string> = { "next-action": opts.id, accept: "text/x-component" };
  headers.origin = opts.origin === null ? "" : (opts.origin ?? new URL(browser.base).origin); // "": none at all
  if (enc.contentType) headers["content-type"] = enc.contentType;
  const res = await browser.fetch(opts.page, { method: "POST", headers, body: enc.body as BodyInit });
  const text = await res.text();
  const contentType = res.headers.get("content-type") ?? "";
  // A Flight answer carries the action's result; a request refused before the action ran
  // (proxy.ts) carries the error envelope as plain JSON.
  let parsed: { result: unknown; error: boolean } = { result: undefined, error: false };
  if (contentType.includes("text/x-component")) parsed = parseFlight(text);
  else if (contentType.includes("json")) {
    try {
      parsed = { result: JSON.parse(text), error: false };
    } catch {
      /* not JSON after all */
    }
  }
  return { status: res.status, contentType, text, ...parsed, redirect: res.headers.get("x-action-redirect") };
}

/** The error envelope `{error:{code,message}}`, if that is what the value is. */
export function asEnvelope(value: unknown): { code: string; message: string } | null {
  const e = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return e && typeof e.code === "string" && e.code.length > 0 && typeof e.message === "string" && e.message.length > 0
    ? { code: e.code, message: e.message }
    : null;
}
