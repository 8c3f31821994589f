import { describe, expect, it } from "vitest";
import { resolveConfig } from "./config";
import { DEMO_CLIENT, EmulatorState, randomAlphanumeric, userIdFor } from "./store";

function setup(overrides = {}) {
  let now = 1_700_000_000_000;
  const config = resolveConfig({ port: 0, tokenTtlS: 60, historyDays: 10, today: "2026-03-15", ...overrides });
  const state = new EmulatorState(config, () => now);
  return { state, config, advance: (ms: number) => (now += ms) };
}

function issue(state: EmulatorState, grantId = "g1") {
  const { user } = state.ensureUser("a@example.test");
  return state.issueTokens({
    clientId: DEMO_CLIENT.clientId,
    userId: user.id,
    scopes: ["daily"],
    flow: "authorization_code",
    withRefresh: true,
    ttlS: 60,
    grantId,
  });
}

describe("token store", () => {
  it("issues alphanumeric tokens that expire after their lifetime", () => {
    const { state, advance } = setup();
    const { access, refresh } = issue(state);
    expect(access.value).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(refresh!.value).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(state.checkAccessToken(access.value).ok).toBe(true);
    advance(59_999);
    expect(state.checkAccessToken(access.value).ok).toBe(true);
    advance(1);
    expect(state.checkAccessToken(access.value)).toEqual({ ok: false, reason: "expired" });
    expect(state.checkAccessToken("nope")).toEqual({ ok: false, reason: "unknown" });
  });

  it("rotates refresh tokens once: the used token fails, the chain continues, other clients are refused", () => {
    const { state } = setup();
    const { refresh } = issue(state);
    const r1 = state.rotateRefreshToken(refresh!.value, DEMO_CLIENT.clientId);
    expect(r1.ok).toBe(true);
    if (!r1.ok) return;
    expect(r1.refresh.value).not.toBe(refresh!.value);
    expect(r1.access.scopes).toEqual(["daily"]);
    expect(state.rotateRefreshToken(refresh!.value, DEMO_CLIENT.clientId)).toEqual({ ok: false, reason: "Refresh token has already been used." });
    expect(state.rotateRefreshToken(r1.refresh.value, "someone-else")).toMatchObject({ ok: false });
    expect(state.rotateRefreshToken(r1.refresh.value, DEMO_CLIENT.clientId).ok).toBe(true);
  });

  it("revoking an access token ends its refresh token, and vice versa", () => {
    const { state } = setup();
    const a = issue(state);
    expect(state.revokeToken(a.access.value)).toBe(true);
    expect(state.checkAccessToken(a.access.value)).toEqual({ ok: false, reason: "revoked" });
    expect(state.rotateRefreshToken(a.refresh!.value, DEMO_CLIENT.clientId)).toMatchObject({ ok: false, reason: expect.stringMatching(/revoked/) });
    const b = issue(state);
    state.revokeToken(b.refresh!.value);
    expect(state.checkAccessToken(b.access.value).ok).toBe(false);
    expect(state.revokeToken("unknown")).toBe(false);
  });

  it("revokes a whole grant, including tokens rotated from it", () => {
    const { state } = setup();
    const a = issue(state, "code-1");
    const other = issue(state, "code-2");
    const rotated = state.rotateRefreshToken(a.refresh!.value, DEMO_CLIENT.clientId);
    if (!rotated.ok) throw new Error("rotation failed");
    expect(state.revokeGrant("code-1")).toBe(2);
    expect(state.checkAccessToken(rotated.access.value).ok).toBe(false);
    expect(state.rotateRefreshToken(rotated.refresh.value, DEMO_CLIENT.clientId).ok).toBe(false);
    expect(state.checkAccessToken(other.access.value).ok).toBe(true);
  });

  it("knows whether a user still has a live grant for a client", () => {
    const { state, advance } = setup();
    const a = issue(state);
    const userId = a.access.userId;
    expect(state.hasLiveGrant(userId, DEMO_CLIENT.clientId)).toBe(true);
    advance(61_000); // access expired, refresh token still usable
    expect(state.hasLiveGrant(userId, DEMO_CLIENT.clientId)).toBe(true);
    state.revokeToken(a.refresh!.value);
    expect(state.hasLiveGrant(userId, DEMO_CLIENT.clientId)).toBe(false);
    expect(state.hasLiveGrant(userId, "other")).toBe(false);
  });

  it("authenticates clients by id and secret", () => {
    const { state } = setup();
    expect(state.authenticateClient(DEMO_CLIENT.clientId, DEMO_CLIENT.clientSecret)?.clientId).toBe(DEMO_CLIENT.clientId);
    expect(state.authenticateClient(DEMO_CLIENT.clientId, "wrong")).toBeUndefined();
    expect(state.authenticateClient("ghost", DEMO_CLIENT.clientSecret)).toBeUndefined();
  });
});

describe("users", () => {
  it("derives ids from seed and normalised e-mail", () => {
    expect(userIdFor("s", "a@b.c")).toMatch(/^[0-9a-f]{12}-[0-9a-f]{23}$/);
    expect(userIdFor("s", "a@b.c")).toBe(userIdFor("s", "a@b.c"));
    expect(userIdFor("s", "a@b.c")).not.toBe(userIdFor("t", "a@b.c"));
    const { state } = setup();
    const a = state.ensureUser(" A@Example.test ");
    const b = state.ensureUser("a@example.test");
    expect(a.created).toBe(true);
    expect(b.created).toBe(false);
    expect(b.user.id).toBe(a.user.id);
  });

  it("keeps only overrides: a revision regenerates one day with the same ids; other days untouched", () => {
    const { state } = setup();
    const { user } = state.ensureUser("x@example.test");
    const before = user.docs.list("daily_readiness").map((d) => ({ ...d }));
    const target = before.at(-2)!;
    const result = user.docs.sync(target.day);
    expect(result.revision).toBe(1);
    const after = user.docs.list("daily_readiness");
    expect(after.map((d) => d.id)).toEqual(before.map((d) => d.id));
    for (const [i, d] of after.entries()) {
      if (d.day === target.day) expect(d).not.toEqual(before[i]);
      else expect(d).toEqual(before[i]);
    }
    expect(user.docs.revisions.get(target.day)).toBe(1);
  });

  it("generates random alphanumerics of the requested length", () => {
    for (const n of [1, 32, 128]) expect(randomAlphanumeric(n)).toMatch(new RegExp(`^[A-Za-z0-9]{${n}}$`));
  });
});

describe("history cache", () => {
  it("keeps a bounded number of generated histories and rebuilds evicted ones with their overrides", () => {
    const { state } = setup({ historyDays: 20 });
    const users = Array.from({ length: 10 }, (_, i) => state.ensureUser(`lru${i}@example.test`).user);
    const first = users[0]!;
    const doc = first.docs.list("sleep")[2]!;
    first.docs.delete("sleep", doc.id!);
    const revised = first.docs.sync(first.docs.list("daily_readiness")[5]!.day);
    const snapshot = first.docs.list("daily_readiness").map((d) => ({ ...d }));
    for (const u of users.slice(1)) u.docs.list("daily_sleep");
    expect(first.docs.cached).toBe(false);
    expect(users.filter((u) => u.docs.cached)).toHaveLength(8);
    expect(first.docs.list("daily_readiness")).toEqual(snapshot);
    expect(first.docs.findById("sleep", doc.id!)).toBeUndefined();
    expect(revised.revision).toBe(1);
  });
});
