// A minimal browser for the production app: a cookie jar (with the attributes the server set),
// manual redirects, and the "Connect your ring" round trip over HTTP (Auth.js sign-in → the
// emulator's consent form → the app's callback), with no page rendering.
import { APP_URL } from "./env";

export type SetCookie = { name: string; value: string; attributes: string[]; raw: string };

export function parseSetCookie(raw: string): SetCookie {
  const [pair, ...attrs] = raw.split(";");
  const eq = pair!.indexOf("=");
  return { name: pair!.slice(0, eq).trim(), value: pair!.slice(eq + 1).trim(), attributes: attrs.map((a) => a.trim()), raw };
}

export class Browser {
  readonly jar = new Map<string, string>();
  /** every Set-Cookie the app sent to this browser, in order */
  readonly setCookies: SetCookie[] = [];

  constructor(readonly base = APP_URL) {}

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  absorb(res: Response): void {
    for (const raw of res.headers.getSetCookie()) {
      const c = parseSetCookie(raw);
      this.setCookies.push(c);
      const expired = c.attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=thu, 01 jan 1970/i.test(a));
      if (expired || c.value === "") this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
  }

  /** A request to the app (path or absolute URL) with this browser's cookies; redirects are not followed. */
  async fetch(pathOrUrl: string, init: RequestInit = {}): Promise<Response> {
    const url = /^https?:/.test(pathOrUrl) ? pathOrUrl : `${this.base}${pathOrUrl}`;
    const headers = new Headers(init.headers);
    if (this.jar.size > 0 && !headers.has("cookie")) headers.set("cookie", this.cookieHeader());
    // As a browser does: a write carries the page's Origin (unless the case sets its own, or
    // removes it with `origin: ""`).
    const method = (init.method ?? "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin")) headers.set("origin", new URL(url).origin);
    if (headers.get("origin") === "") headers.delete("origin");
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    this.absorb(res);
    return res;
  }

  async json<T = unknown>(pathOrUrl: string, init: RequestInit = {}): Promise<{ status: number; body: T; res: Response }> {
    const res = await this.fetch(pathOrUrl, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: body as T, res };
  }

  get signedIn(): boolean {
    return [...this.jar.keys()].some((k) => k.endsWith("authjs.session-token"));
  }
}

export type ConnectResult = {
  browser: Browser;
  /** where the app sent the browser at the end (the dashboard, or the sign-in error page) */
  landed: URL;
  authorize: URL;
  callback: URL;
};

/** Connect: csrf + POST /api/auth/signin/ring; returns the emulator's authorize URL. */
export async function startConnect(browser: Browser): Promise<URL> {
  const { body } = await browser.json<{ csrfToken: string }>("/api/auth/csrf");
  const res = await browser.fetch("/api/auth/signin/ring", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: body.csrfToken, callbackUrl: `${browser.base}/` }).toString(),
  });
  if (res.status !== 302) throw new Error(`sign-in start answered ${res.status}`);
  return new URL(res.headers.get("location")!);
}

/** The consent page's answer at the emulator: the redirect back to the app. */
export async function consent(authorize: URL, email: string, opts: { decision?: "allow" | "deny"; scopes?: string } = {}): Promise<URL> {
  const form = new URLSearchParams({ user: email, decision: opts.decision ?? "allow" });
  if (opts.scopes !== undefined) form.set("granted_scope", opts.scopes);
  const res = await fetch(authorize, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  if (res.status !== 302)
    throw new Error(
      `consent answered ${res.status}: ${(await res.text())
        .replace(/<style[\s\S]*?<\/style>/, "")
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .slice(0, 400)} (${authorize})`,
    );
  return new URL(res.headers.get("location")!);
}

export async function finishConnect(browser: Browser, callback: URL): Promise<URL> {
  const res = await browser.fetch(`${callback.pathname}${callback.search}`);
  await res.arrayBuffer();
  if (res.status !== 302 && res.status !== 303) throw new Error(`callback answered ${res.status}`);
  return new URL(res.headers.get("location")!, browser.base);
}

/** The whole round trip for one person. */
export async function connect(email: string, opts: { browser?: Browser; decision?: "allow" | "deny"; scopes?: string } = {}): Promise<ConnectResult> {
  const browser = opts.browser ?? new Browser();
  const authorize = await startConnect(browser);
  const callback = await consent(authorize, email, opts);
  const landed = await finishConnect(browser, callback);
  return { browser, landed, authorize, callback };
}
