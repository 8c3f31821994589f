// POST /api/import with each kind of upload (told apart by content, whatever the declared
// type), the dry run, several files at once, the media types and origins it refuses; GET
// /api/import (the page's progress) and DELETE (discard).
import path from "node:path";
import fs from "node:fs";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { generateRange } from "@/lib/emulator/generator";
import { exportCsv, trendsCsv, writeZip } from "@/lib/test/import-kit";
import { sqlRun, sqlValue } from "@/lib/test/sql";

const session = vi.hoisted(() => ({ user: { id: "u-import", email: "import@example.test", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({
  requireUser: async () => session.user,
  currentUser: async () => session.user,
}));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let route: { GET: Handler; POST: Handler; DELETE: Handler };
const docs = generateRange({ seed: "import-route", userKey: "someone" }, "2026-01-01", "2026-01-14");
let zip: Buffer;
const S = docs.daily_sleep!.length;
const R = docs.daily_readiness!.length;

async function call(method: string, url: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) {
  const headers = new Headers(init.headers);
  if (method !== "GET" && !headers.has("origin")) headers.set("origin", "http://localhost");
  const res = await route[method as "GET" | "POST" | "DELETE"](
    new Request(`http://localhost${url}`, { method, headers, body: init.body, duplex: "half" } as RequestInit),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

const count = async (table: string) => Number(await sqlValue(`SELECT COUNT(*) FROM ${table} WHERE userId = ?`, session.user.id));

beforeAll(async () => {
  const now = new Date().toISOString();
  await sqlRun(
    `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'owner', 'metric', 'system', ?, ?)`,
    session.user.id,
    session.user.email,
    now,
    now,
  );
  route = (await import("@/app/api/import/route")) as unknown as typeof route;
  const file = path.join(fs.mkdtempSync(path.join(process.env.DATA_DIR!, "route-")), "export.zip");
  await writeZip(file, [
    { name: "App Data/DailySleep.csv", data: exportCsv(docs.daily_sleep!) },
    { name: "App Data/OuraDailyReadiness.csv", data: exportCsv(docs.daily_readiness!) },
    { name: "App Data/meal.csv", data: "id;day\n1;2026-01-01\n" },
  ]);
  zip = fs.readFileSync(file);
});

describe("POST /api/import", () => {
  it("a ZIP with ?dry_run=1: what would be stored per collection and the unmapped files; nothing stored", async () => {
    const r = await call("POST", "/api/import?dry_run=1", { body: new Uint8Array(zip), headers: { "content-type": "application/zip" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      dryRun: true,
      kind: "account_export",
      collections: { daily_sleep: { rows: S, new: S }, daily_readiness: { rows: R, new: R } },
      unmapped: [{ name: "App Data/meal.csv", size: "id;day\n1;2026-01-01\n".length }],
    });
    expect(await count("daily_sleep")).toBe(0);
    // a dry run records nothing
    expect((await call("GET", "/api/import")).body).toMatchObject({ status: "idle" });
  });

  it("the ZIP stored, then a CSV file of its and a Trends CSV sent together (multipart): told apart by content, nothing changes", async () => {
    const stored = await call("POST", "/api/import", { body: new Uint8Array(zip), headers: { "content-type": "application/octet-stream" } });
    expect(stored).toMatchObject({ status: 200, body: { dryRun: false, documents: { daily_sleep: S, daily_readiness: R } } });
    expect(await count("daily_sleep")).toBe(S);
    expect((await call("GET", "/api/import")).body).toMatchObject({ status: "done", dryRun: false, rows: S + R, totalRows: S + R });

    const form = new FormData();
    form.append("file", new Blob([exportCsv(docs.daily_sleep!)], { type: "text/csv" }), "dailysleep.csv");
    form.append(
      "file",
      new Blob(
        [
          trendsCsv(
            docs,
            "old",
            docs.daily_sleep!.map((d) => d.day as string),
          ),
        ],
        { type: "text/csv" },
      ),
      "oura_trends_2026.csv",
    );
    const both = await call("POST", "/api/import", { body: form });
    expect(both.status).toBe(200);
    expect(both.body.files.map((f: { name: string; role: string; collection: string }) => [f.name, f.role, f.collection])).toEqual([
      ["dailysleep.csv", "collection", "daily_sleep"],
      ["oura_trends_2026.csv", "trends", "trends"],
    ]);
    expect(both.body.collections.daily_sleep).toMatchObject({ new: 0, changed: 0, unchanged: S, skipped: S });
    expect(await count("daily_sleep")).toBe(S);
  });

  it("one CSV file as text/csv, under a name that says nothing: told by its columns", async () => {
    const r = await call("POST", "/api/import?dry_run=1", {
      body: exportCsv(docs.daily_spo2!),
      headers: { "content-type": "text/csv", "x-file-name": "download%20(3).csv" },
    });
    expect(r).toMatchObject({ status: 200, body: { kind: "csv", files: [{ name: "download (3).csv", role: "collection", collection: "daily_spo2" }] } });
  });

  it("refuses another media type (415), another origin (403), a bad file (422 naming file and row), with nothing stored", async () => {
    const before = await count("daily_sleep");
    expect((await call("POST", "/api/import", { body: "id;day\n", headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect((await call("POST", "/api/import", { body: "id;day\n", headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(415);
    expect(
      (await call("POST", "/api/import", { body: new Uint8Array(zip), headers: { "content-type": "application/zip", origin: "https://evil.example" } })).status,
    ).toBe(403);
    // declared JSON is read as Ringside's export: text that is not JSON is a 400, not a CSV file
    expect((await call("POST", "/api/import", { body: "id,day\n1,2026-01-01\n", headers: { "content-type": "application/json" } })).status).toBe(400);
    const bad = await call("POST", "/api/import", {
      body: "id;day;score\nx;2026-01-01;1\ny;1990-01-01;2\n",
      headers: { "content-type": "text/csv", "x-file-name": "dailysleep.csv" },
    });
    expect(bad).toEqual({
      status: 422,
      body: {
        error: {
          code: "unprocessable_entity",
          message: 'dailysleep.csv, row 2: the day "1990-01-01" is not a day between 2013-01-01 and ' + bad.body.error.message.slice(-11),
        },
      },
    });
    expect(await count("daily_sleep")).toBe(before);
    expect((await call("GET", "/api/import")).body).toMatchObject({ status: "failed", message: expect.stringContaining("dailysleep.csv, row 2") });
  });

  it("a slow upload holds no import slot while it arrives: another one is answered meanwhile, and its dry run shows in GET", async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const slow = new ReadableStream<Uint8Array>({
      async start(c) {
        c.enqueue(new TextEncoder().encode("id;day;score\n"));
        await gate;
        c.enqueue(new TextEncoder().encode("z;2026-01-02;3\n"));
        c.close();
      },
    });
    const first = call("POST", "/api/import?dry_run=1", { body: slow, headers: { "content-type": "text/csv", "x-file-name": "dailysleep.csv" } });
    while ((await call("GET", "/api/import")).body.status !== "checking") await new Promise((r) => setImmediate(r));
    expect((await call("GET", "/api/import")).body).toMatchObject({ status: "checking", dryRun: true });
    const headers = new Headers({ "content-type": "application/zip", origin: "http://localhost" });
    const res = await route.POST(new Request("http://localhost/api/import?dry_run=1", { method: "POST", headers, body: new Uint8Array(zip) }), {
      params: Promise.resolve({}),
    });
    open();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ dryRun: true, kind: "account_export" });
    expect(await first).toMatchObject({ status: 200, body: { dryRun: true } });
  });

  it("with as many imports as the server takes at once, another answers 429 with Retry-After", async () => {
    const { IMPORT_MAX_UPLOADS, runTracked } = await import("@/lib/import/gate");
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const held = Array.from({ length: IMPORT_MAX_UPLOADS }, (_, i) => runTracked(`someone-${i}`, undefined, () => released));
    try {
      const headers = new Headers({ "content-type": "application/zip", origin: "http://localhost" });
      const res = await route.POST(new Request("http://localhost/api/import?dry_run=1", { method: "POST", headers, body: new Uint8Array(zip) }), {
        params: Promise.resolve({}),
      });
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("15");
      expect(await res.json()).toMatchObject({ error: { code: "rate_limited", message: expect.stringContaining("Another import is running") } });
    } finally {
      release();
      await Promise.all(held);
    }
  });

  it("?resume=1 without an interrupted import → 409; DELETE forgets the last import", async () => {
    expect((await call("POST", "/api/import?resume=1")).status).toBe(409);
    expect((await call("DELETE", "/api/import")).status).toBe(204);
    expect((await call("GET", "/api/import")).body).toMatchObject({ status: "idle" });
  });
});
