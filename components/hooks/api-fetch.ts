import type { QueryKey } from "@tanstack/react-query";
// The one fetcher of the dashboard: JSON in and out, and our error envelope
// ({ error: { code, message, details? } }) turned into an ApiError with code and status.
// GETs revalidate: the data routes tag each answer (ETag from the person's data version,
// lib/api/conditional.ts); the fetcher remembers the last answers with their tags and asks
// with If-None-Match, and a 304 hands back the remembered answer — a refetch after a window
// focus or an invalidation costs a few hundred bytes unless something changed.

/** The last tagged answers by URL (newest last; at most REMEMBERED). */
const remembered = new Map<string, { etag: string; data: unknown }>();
const REMEMBERED = 48;

function remember(url: string, etag: string, data: unknown): void {
  remembered.delete(url);
  remembered.set(url, { etag, data });
  while (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value!);
}

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;
  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export async function apiFetch<T>(url: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  const isGet = (rest.method ?? "GET").toUpperCase() === "GET" && json === undefined && rest.body == null;
  const known = isGet ? remembered.get(url) : undefined;
  const res = await fetch(url, {
    ...rest,
    headers: {
      accept: "application/json",
      ...(json !== undefined ? { "content-type": "application/json" } : {}),
      ...(known ? { "if-none-match": known.etag } : {}),
      ...headers,
    },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
    credentials: "same-origin",
  });
  if (res.status === 304 && known) {
    remember(url, known.etag, known.data);
    return known.data as T;
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: handled below
  }
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
    throw new ApiError(res.status, err?.code ?? "http_error", err?.message ?? `The server answered ${res.status}.`, err?.details);
  }
  const etag = isGet ? res.headers.get("etag") : null;
  if (etag) remember(url, etag, data);
  else if (isGet) remembered.delete(url);
  return data as T;
}

/** "/api/x?a=1&b=2" from a path and defined params. */
export function withQuery(path: string, params: Record<string, string | number | undefined | null>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") sp.set(k, String(v));
  const s = sp.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * The query of a GET over a range of days: `params` go into the URL in their order, and it is
 * asked only once both ends of the range are known.
 */
export function rangeQuery<T>(queryKey: QueryKey, path: string, params: { from: string | null; to: string | null } & Record<string, string | number | null>) {
  return { queryKey, queryFn: () => apiFetch<T>(withQuery(path, params)), enabled: !!params.from && !!params.to };
}
