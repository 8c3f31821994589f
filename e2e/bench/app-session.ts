// A bench person's way into the app as a browser and a client would: signed in through the real
// OAuth flow (a lapsed membership at the emulator, so the ring service gives nothing), their
// nights imported through Ringside's own import, the app's built server actions called as the
// browser calls them, and a personal access token for the read API. Shared by the cycle's and
// the sleep need's benches.
import { DATA_KINDS } from "@/lib/auth/api-scopes";
import { connectThroughOAuth } from "./backfill";
import { encodeArgs, parseFlight, type ActionArg } from "../chaos/support/actions";
import { pagePath, type ManifestAction } from "../chaos/support/surface";

export class Session {
  constructor(
    readonly appUrl: string,
    readonly cookie: string,
  ) {}

  async fetch(pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("cookie", this.cookie);
    if (init.method && init.method !== "GET") headers.set("origin", this.appUrl);
    return fetch(`${this.appUrl}${pathname}`, { ...init, headers, redirect: "manual" });
  }

  /** Calls a built server action as the browser does; answers its result. */
  async action(a: ManifestAction, args: ActionArg[]): Promise<unknown> {
    const enc = encodeArgs(args);
    const headers: Record<string, string> = { "next-action": a.id, accept: "text/x-component" };
    if (enc.contentType) headers["content-type"] = enc.contentType;
    const res = await this.fetch(pagePath(a.pages[0]!), { method: "POST", headers, body: enc.body as BodyInit });
    const text = await res.text();
    const parsed = parseFlight(text);
    if (!res.ok || parsed.error) throw new Error(`${a.name}: ${res.status} ${text.slice(0, 200)}`);
    return parsed.result;
  }
}

export function findAction(actions: readonly ManifestAction[], name: string): ManifestAction {
  const a = actions.find((x) => x.name === name && x.pages.length > 0);
  if (!a) throw new Error(`no built server action ${name}`);
  return a;
}

export async function getJson<T>(appUrl: string, token: string, pathname: string): Promise<T> {
  const res = await fetch(`${appUrl}${pathname}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${pathname.split("?")[0]} → ${res.status} ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as T;
}

/** A new person at the emulator (nothing to sync), signed in through the real OAuth flow, with `file` imported: their session. */
export async function signInAndImport(appUrl: string, emulatorUrl: string, email: string, file: string): Promise<Session> {
  const created = await fetch(`${emulatorUrl}/_emulator/users`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, history_days: 1, subscription: "expired" }),
  });
  if (!created.ok) throw new Error(`emulator user: ${created.status}`);
  const session = new Session(appUrl, (await connectThroughOAuth(appUrl, email)).jar.header());
  const imported = await session.fetch("/api/import", {
    method: "POST",
    headers: { "content-type": "application/json", "x-file-name": "ringside-export.json" },
    body: file,
  });
  const report = await imported.text();
  if (!imported.ok) throw new Error(`import: ${imported.status} ${report.slice(0, 300)}`);
  if ((JSON.parse(report) as { rejected?: number }).rejected) throw new Error(`import rejected documents: ${report.slice(0, 300)}`);
  return session;
}

/** A personal access token with every data kind, made through the app's own action. */
export async function makeToken(session: Session, action: ManifestAction, name: string): Promise<string> {
  const made = (await session.action(action, [{ json: {} }, { form: [["name", name], ...DATA_KINDS.map((k) => ["kinds", k] as [string, string])] }])) as {
    token?: string;
  };
  if (!made.token) throw new Error("no token made");
  return made.token;
}
