// Conditional requests of the data routes on a real (temporary) database: each answer carries
// an ETag from the person's data version, a repeat with If-None-Match is answered 304 without
// computing anything, and every kind of write (a note, a tag, a sync page, a webhook delete,
// a preference, "delete my data") makes the same tag stale, so the next answer is the new one.
import { clock } from "@/lib/clock";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { generateRange } from "@/lib/emulator/generator";

const session = vi.hoisted(() => ({ user: { id: "u-etag", email: "etag@example.test", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({
  requireUser: async () => session.user,
  currentUser: async () => session.user,
}));

// Counts the series computations (the real ones run): a 304 must not reach them.
const computed = vi.hoisted(() => ({ series: 0 }));
vi.mock("@/lib/services/metrics", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/services/metrics")>();
  return {
    ...real,
    getSeriesColumns: (...args: Parameters<typeof real.getSeriesColumns>) => {
      computed.series++;
      return real.getSeriesColumns(...args);
    },
  };
});

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const FIRST = "2024-01-01";
const LAST = "2024-03-31";

async function call(handler: Handler, url: string, params: Record<string, string> = {}, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (init.method && init.method !== "GET") headers.set("origin", "http://localhost");
  return handler(new Request(`http://localhost${url}`, { ...init, headers }), { params: Promise.resolve(params) });
}
const put = (body: unknown): RequestInit => ({ method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

let docs: ReturnType<typeof generateRange>;

beforeAll(async () => {
  const { rawDb } = await import("@/lib/db");
  const { mapDocument } = await import("@/lib/sync/map");
  const { ingestDocuments } = await import("@/lib/db/ingest/documents");
  const now = clock.date().toISOString();
  for (const id of ["u-etag", "u-other"]) {
    rawDb()
      .prepare(`INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'member', 'metric', 'system', ?, ?)`)
      .run(id, `${id}@example.test`, now, now);
  }
  docs = generateRange({ seed: "etag-test", userKey: "etag" }, FIRST, LAST);
  for (const userId of ["u-etag", "u-other"]) {
    const rows = docs.daily_sleep.map((d) => mapDocument("daily_sleep", d, userId, now)).flatMap((r) => (r.ok ? [r.row] : []));
    await ingestDocuments({ collection: "daily_sleep", userId, rows });
  }
});

const seriesUrl = `/api/metrics/sleep.score?from=${FIRST}&to=${LAST}`;

async function series(ifNoneMatch?: string) {
  const { GET } = await import("@/app/api/metrics/[metric]/route");
  return call(GET as Handler, seriesUrl, { metric: "sleep.score" }, ifNoneMatch ? { headers: { "if-none-match": ifNoneMatch } } : {});
}

describe("conditional data routes", () => {
  it("tags an answer, and answers a repeat with its tag 304 without computing the series", async () => {
    const first = await series();
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"\d+-/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    await first.json();

    const before = computed.series;
    const again = await series(etag);
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    expect(computed.series).toBe(before);

    // another tag (or another range, or another person's tag) gets the whole answer
    expect((await series('W/"0-nope"')).status).toBe(200);
    expect(computed.series).toBe(before + 1);
  });

  it("never gives one person's tag a 304 for another person", async () => {
    const etag = (await series()).headers.get("etag")!;
    session.user = { ...session.user, id: "u-other" };
    try {
      const res = await series(etag);
      expect(res.status).toBe(200);
      expect(res.headers.get("etag")).not.toBe(etag);
    } finally {
      session.user = { ...session.user, id: "u-etag" };
    }
  });

  it("answers bad input with its error even with a tag, and tags no error", async () => {
    const { GET } = await import("@/app/api/metrics/[metric]/route");
    const res = await call(GET as Handler, `/api/metrics/nope?from=${FIRST}&to=${LAST}`, { metric: "nope" }, { headers: { "if-none-match": "*" } });
    expect(res.status).toBe(422);
    expect(res.headers.get("etag")).toBeNull();
  });

  it("a note edit makes the day's tag stale: the same If-None-Match gets 200 with the note", async () => {
    const day = "2024-02-10";
    const dayRoute = await import("@/app/api/days/[day]/route");
    const first = await call(dayRoute.GET as Handler, `/api/days/${day}`, { day });
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect((await first.json()).note.text).toBe("");
    expect((await call(dayRoute.GET as Handler, `/api/days/${day}`, { day }, { headers: { "if-none-match": etag } })).status).toBe(304);

    const note = await import("@/app/api/notes/[day]/route");
    expect((await call(note.PUT as Handler, `/api/notes/${day}`, { day }, put({ text: "late dinner", tags: ["food"] }))).status).toBe(200);

    const after = await call(dayRoute.GET as Handler, `/api/days/${day}`, { day }, { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect((await after.json()).note).toMatchObject({ text: "late dinner", tags: [expect.objectContaining({ name: "food" })] });
  });

  it("a sync page that changes a document makes the series' tag stale; an unchanged page does not", async () => {
    const { mapDocument } = await import("@/lib/sync/map");
    const { ingestDocuments } = await import("@/lib/db/ingest/documents");
    const now = clock.date().toISOString();
    const etag = (await series()).headers.get("etag")!;

    // the same documents again: nothing changed, the tag holds
    const same = docs.daily_sleep.map((d) => mapDocument("daily_sleep", d, "u-etag", now)).flatMap((r) => (r.ok ? [r.row] : []));
    await ingestDocuments({ collection: "daily_sleep", userId: "u-etag", rows: same });
    expect((await series(etag)).status).toBe(304);

    // the ring service revised one night's score
    const target = docs.daily_sleep.find((d) => d.day === "2024-03-01")!;
    const revised = { ...target, score: target.score === 42 ? 43 : 42 };
    const row = mapDocument("daily_sleep", revised, "u-etag", now);
    if (!row.ok) throw new Error(row.error);
    await ingestDocuments({ collection: "daily_sleep", userId: "u-etag", rows: [row.row] });
    const res = await series(etag);
    expect(res.status).toBe(200);
    const body = await res.json();
    const i = Math.round((Date.parse("2024-03-01") - Date.parse(FIRST)) / 86_400_000);
    expect(body.value[i]).toBe(revised.score);
  });

  it("computes the strongest relationships once per data version and range", async () => {
    const { getStrongestCorrelations } = await import("@/lib/services/metrics");
    const { bumpDataVersion } = await import("@/lib/db/queries/data-version");
    const { prisma } = await import("@/lib/db/prisma");
    const q = { userId: "u-etag", from: FIRST, to: LAST, limit: 5 };
    const first = await getStrongestCorrelations(q);
    expect(await getStrongestCorrelations(q)).toBe(first);
    // another range or another person: their own answers
    expect(await getStrongestCorrelations({ ...q, from: "2024-02-01" })).not.toBe(first);
    expect(await getStrongestCorrelations({ ...q, userId: "u-other" })).not.toBe(first);
    // a narrower set of metrics (a token's kinds) is another question
    expect(await getStrongestCorrelations({ ...q, include: (m) => m.id.startsWith("sleep.") })).not.toBe(first);
    await bumpDataVersion(prisma(), "u-etag");
    const after = await getStrongestCorrelations(q);
    expect(after).not.toBe(first);
    expect(after).toEqual(first);
  });

  it("the read API's answers are conditional too, per token's data kinds", async () => {
    const { createApiToken } = await import("@/lib/services/api-tokens");
    const route = await import("@/app/api/v1/metrics/[metric]/route");
    const all = (await createApiToken("u-etag", { name: "all", kinds: ["daily_sleep", "daily_readiness", "daily_activity"] })).token;
    const sleepOnly = (await createApiToken("u-etag", { name: "sleep", kinds: ["daily_sleep"] })).token;
    const get = (token: string, inm?: string) =>
      call(
        route.GET as Handler,
        `/api/v1/metrics/sleep.score?from=${FIRST}&to=${LAST}`,
        { metric: "sleep.score" },
        {
          headers: { authorization: `Bearer ${token}`, ...(inm ? { "if-none-match": inm } : {}) },
        },
      );
    const first = await get(all);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    // the read API keeps its shape: one slot per day for flags and runs
    const body = await first.json();
    expect(body.flag).toHaveLength(body.value.length);
    const again = await get(all, etag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    // another token's kinds make another answer (and another tag)
    const other = await get(sleepOnly, etag);
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);
  });

  it("a sync that only finds what is stored leaves the version alone: samples, the personal snapshot, the newest day", async () => {
    const { readDataVersion } = await import("@/lib/db/queries/data-version");
    const { mergeSampleDays, sampleDaysReplace } = await import("@/lib/db/ingest/series");
    const { ingestTransaction } = await import("@/lib/db/ingest/driver");
    const replaceSampleDays = (opts: Parameters<typeof sampleDaysReplace>[0]) => ingestTransaction(() => sampleDaysReplace(opts));
    const { upsertPersonalInfo } = await import("@/lib/db/ingest/documents");
    const { ensureSyncStates, updateSyncState } = await import("@/lib/db/queries/sync-state");
    const { mapSamples } = await import("@/lib/sync/map");
    const { groupByUtcDay } = await import("@/lib/db/sample-codec");
    const v = async () => (await readDataVersion("u-other"))!;
    const rows = [0, 1, 2].map((i) => ({ bpm: 60 + i, source: "awake", timestamp: `2024-03-01T10:0${i}:00+00:00` }));
    const days = groupByUtcDay(mapSamples("heartrate", rows).samples);
    let last = await v();
    await mergeSampleDays({ collection: "heartrate", userId: "u-other", days });
    expect(await v()).toBeGreaterThan(last);
    last = await v();
    await mergeSampleDays({ collection: "heartrate", userId: "u-other", days });
    await replaceSampleDays({ collection: "heartrate", userId: "u-other", fromDay: "2024-03-01", toDay: "2024-03-01", days });
    expect(await v()).toBe(last);
    await replaceSampleDays({ collection: "heartrate", userId: "u-other", fromDay: "2024-03-01", toDay: "2024-03-01", days: new Map() });
    expect(await v()).toBeGreaterThan(last);
    last = await v();

    const info = {
      userId: "u-other",
      ringUserId: "ring-u-other",
      age: 40,
      weight: 70,
      height: 1.8,
      biological_sex: "female",
      email: null,
      raw: '{"id":"ring-u-other","age":40}',
    };
    await upsertPersonalInfo(info);
    expect(await v()).toBeGreaterThan(last);
    last = await v();
    await upsertPersonalInfo(info);
    expect(await v()).toBe(last);

    await ensureSyncStates("u-other", ["daily_sleep"]);
    await updateSyncState("u-other", "daily_sleep", { newestDay: "2024-03-31" });
    expect(await v()).toBeGreaterThan(last);
    last = await v();
    await updateSyncState("u-other", "daily_sleep", { newestDay: "2024-03-31", lastError: null });
    expect(await v()).toBe(last);
    await updateSyncState("u-other", "daily_sleep", { newestDay: "2024-04-01" });
    expect(await v()).toBeGreaterThan(last);
  });

  it("a webhook's delete, a tag rename, a preference and deleting the data each move the version", async () => {
    const { readDataVersion } = await import("@/lib/db/queries/data-version");
    const { documentDelete } = await import("@/lib/db/queries/ring-documents");
    const { prisma } = await import("@/lib/db/prisma");
    const deleteDocumentById = (c: "daily_sleep", u: string, id: string) => prisma().$transaction((tx) => documentDelete(tx, c, u, id));
    const { createTag, updateTag, deleteTag } = await import("@/lib/services/tags");
    const { updatePreferences, deleteAllMyData } = await import("@/lib/services/people");
    const v = async () => (await readDataVersion("u-etag"))!;
    const other = await readDataVersion("u-other");

    let last = await v();
    const step = async (what: string, write: () => unknown) => {
      await write();
      expect(await v(), what).toBeGreaterThan(last);
      last = await v();
    };
    const doc = docs.daily_sleep.find((d) => d.day === "2024-01-05")!;
    await step("webhook delete", () => deleteDocumentById("daily_sleep", "u-etag", String(doc.id)));
    // deleting what is not there changes nothing
    await deleteDocumentById("daily_sleep", "u-etag", "no-such-document");
    expect(await v()).toBe(last);
    const tag = await createTag({ userId: "u-etag", name: "travel" });
    expect(await v()).toBeGreaterThan(last);
    last = await v();
    await step("tag rename", () => updateTag({ userId: "u-etag", id: tag.id, name: "trips" }));
    await step("tag delete", () => deleteTag({ userId: "u-etag", id: tag.id }));
    await step("preference", () => updatePreferences("u-etag", { units: "imperial" }));
    await step("delete my data", () => deleteAllMyData("u-etag"));
    // nobody else's answers went stale
    expect(await readDataVersion("u-other")).toBe(other);
  });
});
