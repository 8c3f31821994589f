// 8. Secrets (production process): no token is readable in the SQLite file (with its WAL and
// shared memory, and a backup) or in any log line captured during the suite; the session
// cookies are HttpOnly and SameSite, and Secure when the app runs behind https (AUTH_URL
// https://…, Auth.js's useSecureCookies); every page and API answer carries the security
// headers (Content-Security-Policy with frame-ancestors, nosniff, Referrer-Policy).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupDatabase } from "@/lib/db/backup.mjs";
import { openAppDb, waitFor, SYNCED } from "./support/app-db";
import { callAction } from "./support/actions";
import { Browser, connect, type SetCookie } from "./support/browser";
import { ISSUED_DIR, startChaosEmulator, type Emulator } from "./support/emulator";
import { ALLOWED_DOMAIN, APP_PORT, CHAOS_CLIENT, CHAOS_LOG_DIR, CHAOS_SECRETS } from "./support/env";
import { recordFigures, sleep } from "./support/figures";
import { startProdApp, type ProdApp } from "./support/prod-app";
import { countLines, filesUnder, findLeaks } from "./support/secrets";
import { builtServerActions, listPages, pagePath } from "./support/surface";

const HTTPS_URL = `https://localhost:${APP_PORT}`;

let emu: Emulator;
let app: ProdApp | undefined;
const apps: ProdApp[] = [];
let db: Database.Database | undefined;
const figures: Record<string, unknown> = {};
const received: string[] = [];
const sessionTokens: string[] = [];

beforeAll(async () => {
  // Tokens live 65 s: with the app's 60 s margin, the sync refreshes them within seconds.
  emu = await startChaosEmulator({ pageSize: 50, historyDays: 30, tokenTtlS: 65 });
  await emu.registerClient({ ...CHAOS_CLIENT, redirect_uris: [...CHAOS_CLIENT.redirect_uris, `${HTTPS_URL}/api/auth/callback/ring`] });
});

afterAll(async () => {
  db?.close();
  for (const a of apps) await a.stop();
  await emu?.close();
});

function attrs(c: SetCookie): Record<string, string | true> {
  return Object.fromEntries(
    c.attributes.map((a) => {
      const [k, ...v] = a.split("=");
      return [k!.toLowerCase(), v.length ? v.join("=") : true];
    }),
  );
}

describe("[CHAOS 8] secrets", () => {
  it("over http: session cookies are HttpOnly and SameSite; no token in the database, a backup, a response or a log line", async () => {
    app = await startProdApp({ name: "secrets" });
    apps.push(app);
    const email = `secret-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
    const { browser, landed } = await connect(email);
    expect(landed.pathname).toBe("/");
    const session = browser.setCookies.find((c) => c.name === "authjs.session-token")!;
    expect(session).toBeTruthy();
    sessionTokens.push(session.value);
    const a = attrs(session);
    expect({ httpOnly: a.httponly, sameSite: String(a.samesite).toLowerCase(), path: a.path }).toEqual({ httpOnly: true, sameSite: "lax", path: "/" });
    for (const c of browser.setCookies.filter((x) => x.value !== ""))
      expect({ cookie: c.name, httpOnly: attrs(c).httponly }).toEqual({ cookie: c.name, httpOnly: true });

    db = openAppDb(app.dbFile);
    const { id: userId } = db.prepare(`SELECT id FROM "User" WHERE email = ?`).get(email) as { id: string };
    await waitFor(
      "the backfill",
      () =>
        (db!.prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND backfillDoneAt IS NOT NULL`).get(userId) as { n: number }).n === SYNCED.length,
      {
        timeoutMs: 60_000,
        intervalMs: 200,
      },
    );
    // Let the token come due and the sync refresh it ("Sync now" after the margin).
    await sleep(5_500);
    expect((await browser.fetch("/api/sync", { method: "POST" })).status).toBe(202);
    await waitFor("a token refresh", async () => (await emu.requests({ kind: "token" })).some((r) => r.grant_type === "refresh_token" && r.status === 200), {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    // Responses a browser gets: the person, the Auth.js session, a full export, the sync status.
    for (const p of ["/api/me", "/api/auth/session", "/api/export?collection=all&format=json", "/api/sync/status", "/api/sync/settings"])
      received.push(await (await browser.fetch(p)).text());
    // The webhook handshake with the verification token, and a disconnect (revocation path).
    expect((await app.request(`/api/webhooks/ring?verification_token=${CHAOS_SECRETS.WEBHOOK_VERIFICATION_TOKEN}&challenge=abc`)).status).toBe(200);

    const account = db.prepare(`SELECT access_token, refresh_token FROM Account WHERE userId = ?`).get(userId) as {
      access_token: string;
      refresh_token: string;
    };
    expect(account.access_token).toMatch(/^v1:/);
    expect(account.refresh_token).toMatch(/^v1:/);
    const backup = await backupDatabase(app.dbFile, path.join(app.dataDir, "secrets-backups"), "secrets");

    const disconnect = builtServerActions().find((x) => x.name === "disconnectRing")!;
    const out = await callAction(browser, { id: disconnect.id, page: pagePath(disconnect.pages[0]!), args: [{ form: [["data", "keep"]] }] });
    expect(out.status).toBeLessThan(500);
    await waitFor("the revocation", async () => (await emu.requests({ kind: "revoke" })).some((r) => r.status === 200), { timeoutMs: 10_000 });

    const tokens = emu.issuedSecrets();
    const refreshes = (await emu.requests({ kind: "token" })).filter((r) => r.grant_type === "refresh_token").length;
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    const dbFiles = [app.dbFile, `${app.dbFile}-wal`, `${app.dbFile}-shm`, backup];
    expect(findLeaks(tokens, dbFiles)).toEqual([]);
    // Nothing of the kind in what the browser received.
    const responses = path.join(CHAOS_LOG_DIR, "secrets-responses.txt");
    fs.writeFileSync(responses, received.join("\n"));
    expect(findLeaks(tokens, [responses])).toEqual([]);
    // The app's own secrets, the session tokens, and every ring token any case of this run issued
    // (this file runs last) never reach a log line captured during the suite.
    const logs = filesUnder(CHAOS_LOG_DIR).filter((f) => f.endsWith(".log"));
    const issuedElsewhere = filesUnder(ISSUED_DIR).flatMap((f) => JSON.parse(fs.readFileSync(f, "utf8")) as string[]);
    const secrets = [...tokens, ...issuedElsewhere, ...Object.values(CHAOS_SECRETS), ...sessionTokens];
    expect(findLeaks(secrets, logs)).toEqual([]);
    figures.http = { tokensIssued: tokens.length, refreshes, leaks: 0 };
    figures.suiteLogs = { files: logs.length, lines: countLines(logs), secretsLookedFor: new Set(secrets).size, leaks: 0 };
    await app.stop();
  });

  it("behind https (AUTH_URL https://…): the session cookie is __Secure-, Secure, HttpOnly and SameSite; every cookie the app sets is Secure", async () => {
    await app?.stop();
    app = await startProdApp({ name: "secrets-https", env: { AUTH_URL: HTTPS_URL, PUBLIC_URL: HTTPS_URL } });
    apps.push(app);
    const owner = `https-owner-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
    const { browser, landed } = await connect(owner);
    expect(landed.pathname).toBe("/");
    const session = browser.setCookies.find((c) => c.name === "__Secure-authjs.session-token")!;
    expect(session).toBeTruthy();
    const a = attrs(session);
    expect({ secure: a.secure, httpOnly: a.httponly, sameSite: String(a.samesite).toLowerCase() }).toEqual({ secure: true, httpOnly: true, sameSite: "lax" });
    expect(browser.setCookies.some((c) => c.name === "authjs.session-token")).toBe(false);

    // The app's own cookies: the invite cookie and the theme cookie.
    const create = builtServerActions().find((x) => x.name === "createInviteLink")!;
    const invite = await callAction(browser, { id: create.id, page: pagePath(create.pages[0]!), args: [{ json: {} }, { form: [] }] });
    const link = (invite.result as { link?: string }).link!;
    expect(link.startsWith(`${HTTPS_URL}/invite/`)).toBe(true);
    const guest = new Browser();
    await guest.fetch(new URL(link).pathname);
    expect(
      (
        await browser.fetch("/api/me/preferences", {
          method: "PATCH",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ theme: "dark" }),
        })
      ).status,
    ).toBe(200);
    const all = [...browser.setCookies, ...guest.setCookies].filter((c) => c.value !== "");
    expect(all.length).toBeGreaterThan(3);
    for (const c of all) expect({ cookie: c.name, secure: attrs(c).secure }).toEqual({ cookie: c.name, secure: true });
    for (const c of all.filter((x) => x.name !== "ringside-theme"))
      expect({ cookie: c.name, httpOnly: attrs(c).httponly }).toEqual({ cookie: c.name, httpOnly: true });
    figures.https = { cookies: [...new Set(all.map((c) => c.name))], allSecure: true };
  });

  it("every page and API answer carries the security headers", async () => {
    if (!app) {
      app = await startProdApp({ name: "secrets-https", env: { AUTH_URL: HTTPS_URL, PUBLIC_URL: HTTPS_URL } });
      apps.push(app);
    }
    const signedIn = (await connect(`headers-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`)).browser;
    const pages = listPages();
    expect(pages).toContain("/");
    // A report share link's page is checked at an open link (the signed-in person's own, made on the report page);
    // a refused link (here the literal "[secret]") gets a plain page that runs no script.
    const createLink = builtServerActions().find((a) => a.name === "createReportLinkAction")!;
    const made = await callAction(signedIn, {
      id: createLink.id,
      page: pagePath(createLink.pages[0]!),
      args: [
        { json: {} },
        {
          form: [
            ["query", "sections=summary"],
            ["expiresDays", "1"],
          ],
        },
      ],
    });
    const openLink = new URL((made.result as { link?: string }).link ?? "http://invalid/").pathname;
    expect(openLink).toMatch(/^\/r\/[^/]+$/);
    const REFUSED_LINK = "/r/[secret]";
    const targets = [
      ...pages.flatMap((p) => [
        { who: "signed in", b: signedIn, path: p === REFUSED_LINK ? openLink : p },
        { who: "anonymous", b: new Browser(), path: p },
      ]),
      { who: "anonymous", b: new Browser(), path: "/api/health" },
      { who: "signed in", b: signedIn, path: "/api/me" },
      { who: "anonymous", b: new Browser(), path: "/api/me" },
      { who: "anonymous", b: new Browser(), path: "/no-such-page" },
      { who: "anonymous", b: new Browser(), path: "/api/days/%" },
      { who: "anonymous", b: new Browser(), path: "/api/auth/csrf" },
      { who: "anonymous", b: new Browser(), path: "/invite/not-a-secret" },
    ];
    const checked: string[] = [];
    const nonces = new Set<string>();
    for (const t of targets) {
      const res = await t.b.fetch(t.path);
      const html = Buffer.from(await res.arrayBuffer()).toString("utf8");
      const h = (n: string) => res.headers.get(n) ?? "";
      const csp = h("content-security-policy");
      // scripts: never 'unsafe-inline'; a page's inline scripts all carry its own fresh nonce
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
      expect({ path: t.path, unsafeInline: scriptSrc.includes("unsafe-inline") }).toEqual({ path: t.path, unsafeInline: false });
      if (t.path === REFUSED_LINK) {
        expect({ path: t.path, status: res.status, scripts: [...html.matchAll(/<script\b/g)].length }).toEqual({ path: t.path, status: 400, scripts: 0 });
      } else if (!t.path.startsWith("/api/") && (res.headers.get("content-type") ?? "").includes("text/html")) {
        const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
        expect({ path: t.path, nonce: !!nonce, fresh: !!nonce && !nonces.has(nonce) }).toEqual({ path: t.path, nonce: true, fresh: true });
        nonces.add(nonce!);
        const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
        expect(scripts.length).toBeGreaterThan(0);
        expect({ path: t.path, withoutNonce: scripts.filter((a) => !a.includes(`nonce="${nonce}"`)) }).toEqual({ path: t.path, withoutNonce: [] });
      }
      expect({
        path: t.path,
        who: t.who,
        status: res.status < 500,
        frameAncestors: /frame-ancestors\s+('none'|'self')/.test(csp),
        defaultSrc: /default-src\s+'self'/.test(csp),
        noEval: !csp.includes("unsafe-eval"),
        nosniff: h("x-content-type-options").toLowerCase() === "nosniff",
        referrer: /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/.test(h("referrer-policy")),
        frameOptions: h("x-frame-options").toUpperCase() === "DENY",
      }).toEqual({
        path: t.path,
        who: t.who,
        status: true,
        frameAncestors: true,
        defaultSrc: true,
        noEval: true,
        nosniff: true,
        referrer: true,
        frameOptions: true,
      });
      checked.push(`${t.who} ${t.path} ${res.status}`);
    }
    figures.headers = { pages: pages.length, responses: checked.length };
    recordFigures("secrets", figures);
  });
});
