// Response builders shared by every emulator route: JSON bodies in the shapes the real
// service uses (FastAPI `{detail}` plus RFC 7807 `status`/`title`, HTTPValidationError,
// RFC 6749 token errors) and small HTML pages.
import { randomBytes } from "node:crypto";
import type { z } from "zod";

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export function statusTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? "Server Error" : "Client Error");
}

const BASE_HEADERS: Record<string, string> = {
  "cache-control": "no-cache",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

export function traceId(): string {
  return randomBytes(16).toString("hex");
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...BASE_HEADERS, "x-trace-id": traceId(), ...headers },
  });
}

export function empty(status = 204, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { ...BASE_HEADERS, ...headers } });
}

/** `{detail, status, title}`: FastAPI's `detail` for readers of the observed shape, RFC 7807 fields for the documented one. */
export function problem(status: number, detail: string, headers: Record<string, string> = {}): Response {
  return json({ detail, status, title: statusTitle(status) }, status, headers);
}

/** The exact body the real service answers for an unknown document id. */
export function documentNotFound(): Response {
  return json({ detail: "Document not found." }, 404);
}

export type ValidationIssue = { loc: Array<string | number>; msg: string; type: string; input?: unknown };

/** 422 HTTPValidationError: `{detail: [{loc, msg, type, input?}]}`. */
export function validationError(issues: ValidationIssue[]): Response {
  return json({ detail: issues }, 422);
}

/** zod issues → FastAPI/Pydantic-style ValidationError entries. */
export function toValidationIssues(error: z.ZodError, root: "body" | "query"): ValidationIssue[] {
  return error.issues.map((issue) => {
    const loc = [root, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))];
    const input = (issue as { input?: unknown }).input;
    if (issue.code === "invalid_type" && input === undefined) return { loc, msg: "Field required", type: "missing" };
    if (issue.code === "invalid_value") return { loc, msg: issue.message, type: "enum", input };
    if (issue.code === "invalid_type") return { loc, msg: issue.message, type: `${issue.expected}_type`, input };
    return { loc, msg: issue.message, type: "value_error", input };
  });
}

export function unauthorized(detail: string, errorCode?: "invalid_token"): Response {
  const challenge = errorCode ? `Bearer realm="ring", error="${errorCode}", error_description="${detail.replaceAll('"', "'")}"` : 'Bearer realm="ring"';
  return problem(401, detail, { "www-authenticate": challenge });
}

export type OAuthErrorCode = "invalid_request" | "invalid_client" | "invalid_grant" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope";

/** RFC 6749 §5.2 token-endpoint error. invalid_client answers 401 with a Basic challenge. */
export function oauthError(error: OAuthErrorCode, description: string): Response {
  const status = error === "invalid_client" ? 401 : 400;
  const headers: Record<string, string> = { "cache-control": "no-store", pragma: "no-cache" };
  if (status === 401) headers["www-authenticate"] = 'Basic realm="ring"';
  return json({ error, error_description: description }, status, headers);
}

export function escapeHtml(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'";

/** A small self-contained HTML page (consent screen, authorize errors). */
export function htmlPage(status: number, title: string, bodyHtml: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f4f7; color: #1b1b23; margin: 0; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; border-radius: 12px; padding: 1.5rem 2rem; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  h1 { font-size: 1.3rem; margin-top: 0; }
  label { display: block; margin: .4rem 0; }
  input[type=email] { width: 100%; box-sizing: border-box; padding: .5rem; font-size: 1rem; margin-top: .25rem; }
  fieldset { border: 1px solid #ddd; border-radius: 8px; margin: 1rem 0; }
  .buttons { display: flex; gap: .75rem; margin-top: 1rem; }
  button { flex: 1; font-size: 1rem; padding: .6rem; border-radius: 8px; border: 1px solid #888; cursor: pointer; }
  button[value=allow] { background: #3b3bd1; color: #fff; border-color: #3b3bd1; }
  .error { color: #a40000; }
  .muted { color: #666; font-size: .85rem; }
  code { word-break: break-all; }
</style>
</head>
<body>
<main>
${bodyHtml}
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      ...BASE_HEADERS,
      "cache-control": "no-store",
      "content-security-policy": PAGE_CSP,
    },
  });
}

export function errorPage(status: number, title: string, message: string): Response {
  return htmlPage(status, title, `<h1>${escapeHtml(title)}</h1>\n<p class="error">${escapeHtml(message)}</p>`);
}

/** Responses marked here make the node:http wrapper destroy the socket instead of answering. */
const DROPPED = new WeakSet<Response>();

export function dropConnection(): Response {
  const res = new Response(null, { status: 599 });
  DROPPED.add(res);
  return res;
}

export function isDropResponse(res: Response): boolean {
  return DROPPED.has(res);
}
