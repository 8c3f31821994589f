// "Connect your ring" end to end against the emulator: all scopes, a subset, denial and retry,
// the household door (uninvited refused, invited admitted and isolated), reconnect after the
// service refuses the stored access, disconnect with revocation, the first-run page.
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import type { Browser, Page } from "@playwright/test";
import { ALL_SCOPES, connectRing, expect, test, uniqueEmail } from "./fixtures";
import { emulatorControl } from "./support/emulator-control";
import { E2E_APP_URL, E2E_CLIENT, E2E_EMULATOR_URL } from "./support/ports";
import { decryptStoredToken } from "./support/tokens";

test.describe.configure({ mode: "serial" });

type UserRow = { id: string; email: string | null; role: string; ringUserId: string | null };
type AccountRow = {
  id: string;
  userId: string;
  status: string;
  statusReason: string | null;
  scope: string | null;
  access_token: string | null;
  refresh_token: string | null;
};

const decrypt = decryptStoredToken;

const userByRing = (db: Database.Database, ringUserId: string) =>
  db.prepare(`SELECT id, email, role, ringUserId FROM "User" WHERE ringUserId = ?`).get(ringUserId) as UserRow | undefined;
const accountOf = (db: Database.Database, userId: string) =>
  db.prepare(`SELECT id, userId, status, statusReason, scope, access_token, refresh_token FROM "Account" WHERE userId = ?`).get(userId) as
    AccountRow | undefined;
const count = (db: Database.Database, sql: string, ...args: unknown[]) => Number((db.prepare(sql).get(...args) as { n: number }).n);
const sessionsOf = (db: Database.Database, userId: string) => count(db, `SELECT COUNT(*) AS n FROM "Session" WHERE userId = ?`, userId);
const totals = (db: Database.Database) => ({
  users: count(db, `SELECT COUNT(*) AS n FROM "User"`),
  accounts: count(db, `SELECT COUNT(*) AS n FROM "Account"`),
  sessions: count(db, `SELECT COUNT(*) AS n FROM "Session"`),
});

async function dataApiStatus(accessToken: string): Promise<number> {
  const res = await fetch(`${E2E_EMULATOR_URL}/v2/usercollection/personal_info`, { headers: { authorization: `Bearer ${accessToken}` } });
  await res.arrayBuffer();
  return res.status;
}

type RequestLogEntry = { user_id: string | null; status: number; grant_type: string | null; token_fingerprint: string | null };
async function emulatorRequests(kind: string): Promise<RequestLogEntry[]> {
  const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/requests?kind=${kind}`);
  return ((await res.json()) as { requests: RequestLogEntry[] }).requests;
}

/** The emulator's token fingerprint (its request log never holds tokens). */
const fingerprint = (token: string) => crypto.createHash("sha256").update(token).digest("hex").slice(0, 12);

/** What the token endpoint answers a refresh with this token. */
async function refreshStatus(refreshToken: string): Promise<number> {
  const res = await fetch(`${E2E_EMULATOR_URL}/oauth/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${E2E_CLIENT.client_id}:${E2E_CLIENT.client_secret}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Signs this page in as the instance's owner: the first person to connect, or the existing owner again. */
async function signInAsOwner(page: Page, db: Database.Database): Promise<{ email: string; ringUserId: string }> {
  const owner = db.prepare(`SELECT id, email, role, ringUserId FROM "User" WHERE role = 'owner'`).get() as UserRow | undefined;
  let email = owner?.email ?? null;
  if (owner && !email) {
    const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/users`);
    const { users } = (await res.json()) as { users: Array<{ user_id: string; email: string }> };
    email = users.find((u) => u.user_id === owner.ringUserId)?.email ?? null;
    if (!email) throw new Error("The owner connected without sharing an e-mail and the emulator no longer knows them.");
  }
  const connected = await connectRing(page, { email: email ?? uniqueEmail("owner") });
  await expect(page).toHaveURL(`${E2E_APP_URL}/`);
  return connected;
}

/** As the owner (on `page`): Settings → Household → Create invite link. */
async function createInvite(page: Page): Promise<string> {
  await page.goto("/settings/household");
  await page.getByRole("button", { name: "Create invite link" }).click();
  const link = (await page.getByTestId("invite-link").textContent())?.trim() ?? "";
  expect(link).toMatch(new RegExp(`^${E2E_APP_URL}/invite/[A-Za-z0-9_-]{43}$`));
  return link;
}

/** A second browser (own cookies) that opens an invite link and connects. */
async function joinWithInvite(browser: Browser, link: string, opts: { email?: string; scopes?: string[] } = {}) {
  const context = await browser.newContext({ baseURL: E2E_APP_URL });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page).toHaveURL(/\/sign-in\?invite=1$/);
  await expect(page.getByTestId("invite-note")).toBeVisible();
  const connected = await connectRing(page, { email: opts.email ?? uniqueEmail("member"), scopes: opts.scopes });
  await expect(page).toHaveURL(`${E2E_APP_URL}/`);
  return { context, page, ...connected };
}

test("[CONNECT] connect with all scopes", async ({ page, appDb }) => {
  const hadOwner = count(appDb, `SELECT COUNT(*) AS n FROM "User" WHERE role = 'owner'`) > 0;
  const { ringUserId } = await signInAsOwner(page, appDb);
  const user = userByRing(appDb, ringUserId)!;
  expect(user.role).toBe("owner"); // the first person to connect owns the instance
  if (!hadOwner) expect(count(appDb, `SELECT COUNT(*) AS n FROM "User" WHERE role = 'owner'`)).toBe(1); // one owner, whoever ran before
  const account = accountOf(appDb, user.id)!;
  expect(account.status).toBe("active");
  expect(account.scope!.split(" ").sort()).toEqual([...ALL_SCOPES].sort());
  // Only ciphertext in the database; it decrypts to a token the service accepts.
  expect(account.access_token).toMatch(/^v1:/);
  expect(account.refresh_token).toMatch(/^v1:/);
  expect(await dataApiStatus(decrypt(account.access_token!))).toBe(200);
  expect(sessionsOf(appDb, user.id)).toBeGreaterThan(0);
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === "authjs.session-token")?.httpOnly).toBe(true);

  await page.goto("/settings/account");
  const section = page.getByTestId("connection-section");
  await expect(section.getByTestId("ring-user-id")).toHaveText(ringUserId);
  await expect(section.getByTestId("token-state")).toContainText(/Active/);
  await expect(section.getByTestId("token-state")).not.toContainText(/v1:/);
  await expect(section.getByTestId("all-shared")).toBeVisible();
  await page.goto("/settings/household");
  await expect(page.getByTestId("household-section")).toBeVisible();

  const me = await (await page.request.get("/api/me")).json();
  expect(me).toMatchObject({ id: user.id, role: "owner", ringUserId, notShared: [] });
  expect(JSON.stringify(me)).not.toContain(decrypt(account.access_token!));
});

test("[CONNECT] connect with a subset and see which collections are not shared, then re-consent", async ({ page, browser, appDb }) => {
  await signInAsOwner(page, appDb);
  const link = await createInvite(page);
  const member = await joinWithInvite(browser, link, { scopes: ["daily", "email"] });
  try {
    const user = userByRing(appDb, member.ringUserId)!;
    expect(user.role).toBe("member");
    expect(accountOf(appDb, user.id)!.scope).toBe("email daily");

    await member.page.goto("/settings/account");
    const notShared = member.page.getByTestId("not-shared");
    await expect(notShared).toBeVisible();
    await expect(notShared).toHaveAttribute("data-items", "daily_spo2 personal_details heartrate workout enhanced_tag tag session daily_cycle_phases");
    await expect(notShared).toContainText("Blood oxygen (SpO2)");
    await expect(notShared).toContainText("Age, sex, height and weight");
    await expect(member.page.getByTestId("granted-scopes")).toHaveAttribute("data-scopes", "email daily");
    const me = await (await member.page.request.get("/api/me")).json();
    expect(me.scopes).toEqual(["email", "daily"]);
    expect(me.notShared).toEqual(["daily_spo2", "personal_details", "heartrate", "workout", "enhanced_tag", "tag", "session", "daily_cycle_phases"]);

    // Re-consent: the offered button goes through the consent page again; all data stays.
    await member.page.getByRole("button", { name: "Reconnect to share more" }).click();
    await member.page.waitForURL((u) => u.port === new URL(E2E_EMULATOR_URL).port);
    await member.page.locator('input[name="user"]').fill(member.email);
    await member.page.getByRole("button", { name: /allow/i }).click();
    await expect(member.page).toHaveURL(`${E2E_APP_URL}/settings/account`);
    await expect(member.page.getByTestId("all-shared")).toBeVisible();
    expect(accountOf(appDb, user.id)!.scope!.split(" ").sort()).toEqual([...ALL_SCOPES].sort());
    expect(userByRing(appDb, member.ringUserId)!.id).toBe(user.id);
  } finally {
    await member.context.close();
  }
});

test("[CONNECT] deny and retry", async ({ page, appDb }) => {
  await signInAsOwner(page, appDb);
  const owner = appDb.prepare(`SELECT id, email FROM "User" WHERE role = 'owner'`).get() as UserRow;
  await page.context().clearCookies();
  const before = totals(appDb);

  await connectRing(page, { email: owner.email!, decision: "deny" });
  await expect(page).toHaveURL(/\/sign-in\/error\?error=denied/);
  await expect(page.getByTestId("sign-in-error")).toHaveAttribute("data-error-code", "denied");
  await expect(page.getByRole("heading", { name: "You chose not to share" })).toBeVisible();
  expect(totals(appDb)).toEqual(before); // nothing stored
  expect((await page.context().cookies()).some((c) => c.name === "authjs.session-token")).toBe(false);

  await page.getByRole("button", { name: "Try again" }).click();
  await page.waitForURL((u) => u.port === new URL(E2E_EMULATOR_URL).port);
  await page.locator('input[name="user"]').fill(owner.email!);
  await page.getByRole("button", { name: /allow/i }).click();
  await expect(page).toHaveURL(`${E2E_APP_URL}/`);
  expect(totals(appDb).users).toBe(before.users);
  expect((await (await page.request.get("/api/me")).json()).id).toBe(owner.id);
});

test("[CONNECT] an uninvited second person is refused", async ({ page, appDb }) => {
  await signInAsOwner(page, appDb); // makes sure the instance has an owner
  await page.context().clearCookies();
  const before = totals(appDb);
  const { ringUserId } = await connectRing(page, { email: uniqueEmail("stranger", "example.test") });
  await expect(page).toHaveURL(/\/sign-in\/error\?error=not_invited/);
  await expect(page.getByRole("heading", { name: "This Ringside is private" })).toBeVisible();
  await expect(page.getByText(/Ask the owner for an invite link/)).toBeVisible();
  expect(totals(appDb)).toEqual(before);
  expect(userByRing(appDb, ringUserId)).toBeUndefined();
  // Their fresh token was handed back to the service.
  const revokes = (await emulatorRequests("revoke")).filter((r) => r.user_id === ringUserId);
  expect(revokes.map((r) => r.status)).toEqual([200]);
  expect((await page.request.get("/api/me")).status()).toBe(401);
});

test("[CONNECT] an invited second person connects and cannot reach the first person's data", async ({ page, browser, appDb }) => {
  await signInAsOwner(page, appDb);
  const owner = appDb.prepare(`SELECT id, email, role, ringUserId FROM "User" WHERE role = 'owner'`).get() as UserRow;
  const link = await createInvite(page);
  const member = await joinWithInvite(browser, link);
  try {
    const memberUser = userByRing(appDb, member.ringUserId)!;
    expect(memberUser.role).toBe("member");
    // The invite is single-use: opening it again leads to the refusal page.
    const again = await browser.newContext({ baseURL: E2E_APP_URL });
    const againPage = await again.newPage();
    await againPage.goto(link);
    await expect(againPage).toHaveURL(/\/sign-in\/error\?error=invite_invalid/);
    await again.close();

    // Who am I: always the member, whatever the request says.
    const me = await (await member.page.request.get(`/api/me?userId=${owner.id}`)).json();
    expect(me).toMatchObject({ id: memberUser.id, role: "member", ringUserId: member.ringUserId });
    await member.page.goto("/settings/account");
    await expect(member.page.getByTestId("ring-user-id")).toHaveText(member.ringUserId);
    // a member's list has no Household; its address says the owner manages it
    await expect(member.page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Household" })).toHaveCount(0);
    await member.page.goto("/settings/household");
    await expect(member.page.getByTestId("household-section")).toContainText("The owner of this Ringside invites others");
    await expect(member.page.getByRole("button", { name: "Create invite link" })).toHaveCount(0);

    // The owner's tag cannot be changed or deleted by the member.
    const created = await page.request.post("/api/tags", { data: { name: `owner-only-${crypto.randomUUID().slice(0, 8)}` }, headers: { origin: E2E_APP_URL } });
    expect(created.status()).toBe(201);
    const tag = (await created.json()) as { id: number; name: string };
    for (const res of [
      await member.page.request.patch(`/api/tags/${tag.id}`, { data: { name: "taken over" }, headers: { origin: E2E_APP_URL } }),
      await member.page.request.delete(`/api/tags/${tag.id}`, { headers: { origin: E2E_APP_URL } }),
    ]) {
      expect([401, 403, 404]).toContain(res.status());
    }
    expect(appDb.prepare(`SELECT name FROM tag WHERE id = ?`).get(tag.id)).toEqual({ name: tag.name });
    const memberTags = (await (await member.page.request.get("/api/tags")).json()) as { tags: Array<{ id: number }> };
    expect(memberTags.tags.some((t) => t.id === tag.id)).toBe(false);

    // An owner-only settings action, posted by the member, does nothing.
    await createInvite(page);
    await page.goto("/settings/household");
    const pending = page.getByTestId("pending-invite").first();
    const inviteId = await pending.getAttribute("data-invite-id");
    const actionField = await pending.locator('input[name^="$ACTION_ID_"]').getAttribute("name");
    expect(inviteId).toBeTruthy();
    expect(actionField).toBeTruthy();
    const post = (p: Page) =>
      p.request.post("/settings/household", { multipart: { [actionField!]: "", inviteId: inviteId! }, headers: { origin: E2E_APP_URL }, maxRedirects: 0 });
    const asMember = await post(member.page);
    // Refused with the error envelope as the action's result (lib/api/action.ts), never a 500.
    expect(asMember.status()).toBeLessThan(500);
    expect(count(appDb, `SELECT COUNT(*) AS n FROM "Invite" WHERE id = ? AND usedAt IS NULL`, inviteId)).toBe(1);
    // The same request from the owner works (so the member's attempt really reached the action).
    const asOwner = await post(page);
    expect(asOwner.status()).toBeLessThan(400);
    expect(count(appDb, `SELECT COUNT(*) AS n FROM "Invite" WHERE id = ?`, inviteId)).toBe(0);
  } finally {
    await member.context.close();
  }
});

test("[CONNECT] refused stored access shows Reconnect; reconnecting keeps the person and their data", async ({ page, browser, appDb }) => {
  await signInAsOwner(page, appDb);
  const member = await joinWithInvite(browser, await createInvite(page));
  try {
    const user = userByRing(appDb, member.ringUserId)!;
    const account = accountOf(appDb, user.id)!;
    // The service withdraws the grant (as after a password change): access and refresh token die.
    const revoke = await fetch(`${E2E_EMULATOR_URL}/oauth/revoke?access_token=${encodeURIComponent(decrypt(account.access_token!))}`, { method: "POST" });
    expect(revoke.status).toBe(200);
    // The next data request of the sync gets 401, the one refresh gets invalid_grant.
    await emulatorControl.sync(member.ringUserId).catch(() => undefined);
    await expect.poll(() => accountOf(appDb, user.id)!.status, { timeout: 30_000, intervals: [250, 500, 1000] }).toBe("needs_reconnect");
    expect(accountOf(appDb, user.id)!.statusReason).toBe("invalid_grant");
    const refreshes = (await emulatorRequests("token")).filter((r) => r.user_id === member.ringUserId && r.grant_type === "refresh_token");
    expect(refreshes.map((r) => r.status)).toEqual([400]); // exactly one attempt, never retried
    const rowsBefore = count(appDb, `SELECT COUNT(*) AS n FROM daily_activity WHERE userId = ?`, user.id);

    await member.page.goto("/");
    const banner = member.page.getByTestId("reconnect-banner");
    await expect(banner).toBeVisible();
    await expect(banner).toContainText("All your stored data is kept");
    await banner.getByRole("button", { name: "Reconnect" }).click();
    await member.page.waitForURL((u) => u.port === new URL(E2E_EMULATOR_URL).port);
    await member.page.locator('input[name="user"]').fill(member.email);
    await member.page.getByRole("button", { name: /allow/i }).click();
    await expect(member.page).toHaveURL(`${E2E_APP_URL}/settings/account`);
    await expect(member.page.getByTestId("reconnect-banner")).toHaveCount(0);

    const after = accountOf(appDb, user.id)!;
    expect(after.id).toBe(account.id);
    expect(after.status).toBe("active");
    expect(userByRing(appDb, member.ringUserId)!.id).toBe(user.id);
    expect(count(appDb, `SELECT COUNT(*) AS n FROM daily_activity WHERE userId = ?`, user.id)).toBeGreaterThanOrEqual(rowsBefore);
    expect(await dataApiStatus(decrypt(after.access_token!))).toBe(200);
  } finally {
    await member.context.close();
  }
});

test("[CONNECT] disconnect revokes both tokens at the service and deletes the tokens (keep and delete data)", async ({ page, browser, appDb }) => {
  await signInAsOwner(page, appDb);
  for (const choice of ["keep", "delete"] as const) {
    const member = await joinWithInvite(browser, await createInvite(page));
    try {
      const user = userByRing(appDb, member.ringUserId)!;
      const token = decrypt(accountOf(appDb, user.id)!.access_token!);
      const refreshToken = decrypt(accountOf(appDb, user.id)!.refresh_token!);
      expect(await dataApiStatus(token)).toBe(200);
      const dataRows = () =>
        ["daily_activity", "daily_sleep", "daily_readiness", "sleep_period", "personal_info", "sync_state", "job"].reduce(
          (n, t) => n + count(appDb, `SELECT COUNT(*) AS n FROM ${t} WHERE userId = ?`, user.id),
          0,
        );
      // Let the first sync store something for this person.
      await expect.poll(dataRows, { timeout: 60_000 }).toBeGreaterThan(0);

      await member.page.goto("/settings/account");
      await member.page.getByRole("button", { name: "Disconnect…" }).click();
      const form = member.page.getByTestId("disconnect-form");
      await form.getByLabel(choice === "keep" ? /Keep my stored data/ : /Delete my stored data/).check();
      const before = dataRows();
      await form.getByRole("button", { name: "Disconnect now" }).click();
      await expect(member.page).toHaveURL(/\/sign-in\?disconnected=1$/);
      await expect(member.page.getByTestId("disconnected-note")).toBeVisible();

      const account = accountOf(appDb, user.id)!;
      expect(account.status).toBe("disconnected");
      expect(account.access_token).toBeNull();
      expect(account.refresh_token).toBeNull();
      expect(sessionsOf(appDb, user.id)).toBe(0);
      expect((await member.page.request.get("/api/me")).status()).toBe(401);
      // The service now rejects the old token.
      expect(await dataApiStatus(token)).toBe(401);
      // Both tokens handed back: the emulator's request log names each revoked token by fingerprint.
      const revokes = (await emulatorRequests("revoke")).filter((r) => r.user_id === member.ringUserId && r.status === 200);
      const fingerprints = revokes.map((r) => r.token_fingerprint);
      expect(fingerprints).toContain(fingerprint(token));
      expect(fingerprints).toContain(fingerprint(refreshToken));
      expect(await refreshStatus(refreshToken)).toBe(400); // the refresh token is dead too
      expect(count(appDb, `SELECT COUNT(*) AS n FROM "User" WHERE id = ?`, user.id)).toBe(1);
      if (choice === "delete") {
        // Every row with their userId in the data tables goes (a page in flight at the moment is swept too).
        await expect.poll(dataRows, { timeout: 60_000 }).toBe(0);
      } else {
        expect(dataRows()).toBeGreaterThanOrEqual(before);
        await expect
          .poll(() => count(appDb, `SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND status != 'paused'`, user.id), { timeout: 60_000 })
          .toBe(0);
      }
    } finally {
      await member.context.close();
    }
  }
});

test("[CONNECT] first-run page (the owner's only, once there is one) and the 10-user limit explanation", async ({ page, browser, appDb }) => {
  await signInAsOwner(page, appDb);
  await page.goto("/setup");
  await expect(page.getByTestId("redirect-uri")).toHaveText(`${E2E_APP_URL}/api/auth/callback/ring`);
  await expect(page.getByTestId(`setup-check-RING_CLIENT_ID`)).toHaveAttribute("data-state", "ok");
  await expect(page.getByTestId(`setup-check-RING_TOKEN_URL`)).toContainText(`${E2E_EMULATOR_URL}/oauth/token`);
  await expect(page.getByTestId("user-limit-help")).toContainText("10 different ring accounts");
  // Anyone else: no configuration (missing variables, service addresses, allowed e-mails).
  const anonymous = await browser.newContext({ baseURL: E2E_APP_URL });
  const other = await anonymous.newPage();
  await other.goto("/setup");
  await expect(other.getByTestId("setup-done")).toBeVisible();
  await expect(other.getByTestId("setup-checks")).toHaveCount(0);
  expect(await other.content()).not.toContain(E2E_EMULATOR_URL);
  await anonymous.close();
  // When the service refuses for its cap, the error page explains it.
  const description = "This application is not approved yet and already has the maximum of 10 users.";
  await page.goto(`/api/auth/callback/ring?error=access_denied&error_description=${encodeURIComponent(description)}&state=x`);
  await expect(page).toHaveURL(/error=user_limit/);
  await expect(page.getByTestId("user-limit-help")).toBeVisible();
  expect(E2E_CLIENT.client_id).toBe("ringside-e2e");
});
