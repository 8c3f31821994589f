// Issue 44: an upload cannot burn the server. Its work is bounded by what was sent (overlapping
// ZIP entries, ratios, the caps shared by an upload's archives, unmapped files never parsed, a
// CPU budget, a client gone, a lost lease); a dry run has no side effect; a start sweeps what a
// crash left; removing a member stops and forgets their import.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import events from "node:events";
import fs from "node:fs";
import readline from "node:readline";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/test/prisma";
import { AppError } from "@/lib/http/errors";
import { ManualClock } from "@/lib/clock";
import { generateRange } from "@/lib/emulator/generator";
import { claimImportLease, readImportState, saveImportState } from "@/lib/db/queries/imports";
import { runImport, type ImportUpload, type RunOptions } from "@/lib/import/run";
import { forgetImportsOf, importStatus } from "@/lib/import/status";
import { sweepImports } from "@/lib/import/sweep";
import { ImportStopped, UPLOAD_LIMITS, cpuSecondsFor } from "@/lib/import/budget";
import { listZip } from "@/lib/import/zip";
import { exportCsv, rawZip, writeZip } from "@/lib/test/import-kit";
import { onPostgres, sqlAll, sqlValue } from "@/lib/test/sql";
import { waitFor } from "@/lib/test/wait";

const clock = new ManualClock(Date.parse("2026-03-15T12:00:00Z"));
const MB = 1024 * 1024;
const DATA = process.env.DATA_DIR!;
const IMPORTS = path.join(DATA, "imports");
const dir = fs.mkdtempSync(path.join(DATA, "bounds-"));
let people = 0;

async function person(): Promise<string> {
  return (await db.user.create({ data: { email: `import-bounds-${++people}@example.test` } })).id;
}
async function* once(data: Buffer | string): AsyncGenerator<Uint8Array> {
  yield Buffer.isBuffer(data) ? data : Buffer.from(data);
}
const file = (name: string, data: Buffer | string): ImportUpload => ({ type: "file", name, body: once(data) });
function multipart(files: Array<{ name: string; data: Buffer | string }>): ImportUpload {
  const boundary = "----bounds" + crypto.randomBytes(8).toString("hex");
  const parts: Buffer[] = [];
  for (const f of files)
    parts.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${f.name}"\r\ncontent-type: application/octet-stream\r\n\r\n`),
      Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data),
      Buffer.from("\r\n"),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: "multipart", contentType: `multipart/form-data; boundary=${boundary}`, body: once(Buffer.concat(parts)) };
}
const spools = () => (fs.existsSync(IMPORTS) ? fs.readdirSync(IMPORTS) : []);

async function stored(userId: string): Promise<number> {
  let n = 0;
  for (const t of ["daily_sleep", "daily_readiness", "heart_rate", "rejected_document", "day_note"])
    n += Number(await sqlValue(`SELECT COUNT(*) FROM ${t} WHERE userId = ?`, userId));
  return n;
}

async function refusal(userId: string, upload: ImportUpload, opts: RunOptions = {}): Promise<{ status: number; message: string }> {
  const err = await runImport(userId, upload, { clock, ...opts }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect(spools()).toEqual([]);
  expect(await stored(userId)).toBe(0);
  return { status: (err as AppError).status, message: (err as AppError).message };
}

const docs = generateRange({ seed: "bounds", userKey: "someone" }, "2026-01-01", "2026-01-20");
const heartRows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    timestamp: new Date(Date.UTC(2026, 0, 5) + i * 300_000).toISOString().replace(".000Z", "+00:00"),
    bpm: 50 + (i % 40),
    source: i % 3 ? "awake" : "rest",
  }));

/** 255 central records over one entry's bytes. */
function overlappingZip(csv: Buffer): Buffer {
  return rawZip(
    [{ name: "App Data/dailysleep.csv", data: csv }],
    Array.from({ length: 255 }, (_, i) => ({ entry: 0, name: `App Data/x${i}.csv` })),
  );
}

describe("work bounded by the input", () => {
  it("a ZIP whose entries overlap is refused while listing, before anything is inflated; the finding's 30 kB bomb too", async () => {
    // the finding's: 255 records over one 15.5 MiB CSV, about 30 kB (its first record is a bomb by its ratio already)
    const bomb = overlappingZip(Buffer.from("a;b\n".repeat(Math.floor((15.5 * MB) / 4))));
    expect(bomb.length).toBeLessThan(40_000);
    expect(await refusal(await person(), file("bomb.zip", bomb))).toMatchObject({ status: 413, message: expect.stringContaining("a ZIP bomb?") });
    // records over one entry of plausible ratio: the overlap refuses it
    const plausible = overlappingZip(Buffer.from(exportCsv(heartRows(2_000))));
    const f = path.join(dir, "overlap.zip");
    fs.writeFileSync(f, plausible);
    await expect(listZip(f)).rejects.toMatchObject({ status: 413, message: expect.stringContaining("overlaps the entry before it") });
    const r = await refusal(await person(), file("overlap.zip", plausible));
    expect(r).toMatchObject({ status: 413, message: "The ZIP is refused: App Data/x1.csv overlaps the entry before it or is out of order (a ZIP bomb?)." });
  });

  it("entries out of order, a folder with content, and a high ratio under the old 16 MiB floor are refused", async () => {
    const a = { name: "App Data/dailysleep.csv", data: Buffer.from(exportCsv(docs.daily_sleep!)) };
    const b = { name: "App Data/dailyreadiness.csv", data: Buffer.from(exportCsv(docs.daily_readiness!)) };
    const reversed = rawZip(
      [a, b],
      [
        { entry: 1, name: b.name },
        { entry: 0, name: a.name },
      ],
    );
    expect(await refusal(await person(), file("r.zip", reversed))).toMatchObject({ status: 413, message: expect.stringContaining("out of order") });
    const folder = rawZip([{ name: "App Data/", data: Buffer.from("x".repeat(1000)) }]);
    expect(await refusal(await person(), file("f.zip", folder))).toMatchObject({
      status: 413,
      message: expect.stringContaining("folder App Data/ declares content"),
    });
    const ratio = rawZip([{ name: "App Data/dailysleep.csv", data: Buffer.from("a;b\n".repeat(Math.floor((15.5 * MB) / 4))) }]);
    expect(await refusal(await person(), file("q.zip", ratio))).toMatchObject({ status: 413, message: expect.stringContaining("times its packed size") });
  });

  it("an upload's archives share one cap on entries and on what they declare unpacked", async () => {
    const zip = (n: number) =>
      rawZip(Array.from({ length: n }, (_, i) => ({ name: `App Data/extra${i}.txt`, data: Buffer.from(`file ${i}`), deflate: false })));
    const limits = { ...UPLOAD_LIMITS, maxEntries: 10 };
    // each alone is within the cap
    await expect(runImport(await person(), file("a.zip", zip(6)), { clock, dryRun: true, uploadLimits: limits })).resolves.toMatchObject({ dryRun: true });
    const both = await refusal(
      await person(),
      multipart([
        { name: "a.zip", data: zip(6) },
        { name: "b.zip", data: zip(6) },
      ]),
      { uploadLimits: limits },
    );
    expect(both).toMatchObject({ status: 413, message: expect.stringContaining("more than 10 entries in all") });
    const bytes = await refusal(
      await person(),
      multipart([
        { name: "a.zip", data: zip(6) },
        { name: "b.zip", data: zip(6) },
      ]),
      { uploadLimits: { ...UPLOAD_LIMITS, maxInflatedBytes: 60 } },
    );
    expect(bytes).toMatchObject({ status: 413, message: expect.stringContaining("unpacked in all") });
  });

  it("a file Ringside does not map is listed by name and size, never parsed (broken CSV inside is no refusal)", async () => {
    const broken = 'id;day\n"never closed;2026-01-01\n' + "a;b;c;d\n".repeat(1000);
    const f = path.join(dir, "unmapped.zip");
    await writeZip(f, [
      { name: "App Data/dailysleep.csv", data: exportCsv(docs.daily_sleep!) },
      { name: "App Data/meal.csv", data: broken },
    ]);
    const r = await runImport(await person(), file("export.zip", fs.readFileSync(f)), { clock, dryRun: true });
    expect(r.unmapped).toEqual([{ name: "App Data/meal.csv", size: Buffer.byteLength(broken) }]);
    expect(r.files.find((x) => x.name === "App Data/meal.csv")).toMatchObject({ role: "unmapped", rows: null });
    // a loose CSV Ringside does not map: its header read, nothing else
    const loose = await runImport(await person(), file("notes.csv", "x;y\n" + '"open;1\n'.repeat(100)), { clock, dryRun: true });
    expect(loose.unmapped).toEqual([{ name: "notes.csv", size: 4 + 8 * 100 }]);
  });

  it("a CPU budget stops the work with a clear refusal (413), storing nothing; the budget follows the bytes received", async () => {
    expect(cpuSecondsFor(MB)).toBe(6);
    expect(cpuSecondsFor(1_000)).toBe(2);
    expect(cpuSecondsFor(100 * MB)).toBe(45);
    const csv = exportCsv(heartRows(12_000));
    const r = await refusal(await person(), file("heartrate.csv", csv), { cpuSeconds: 0.001 });
    expect(r).toMatchObject({ status: 413, message: expect.stringContaining("CPU-seconds") });
  });

  it("the work stops when its client goes away (the request's signal), leaving no spool, row or state", async () => {
    const userId = await person();
    const controller = new AbortController();
    const csv = exportCsv(heartRows(12_000));
    const running = runImport(userId, file("heartrate.csv", csv), {
      clock,
      signal: controller.signal,
      afterChunk: () => controller.abort(),
    }).catch((e: unknown) => e);
    const err = await running;
    // aborted while storing: interrupted (resumable) like any stop part-way, its spool kept to resume
    expect(err).toMatchObject({ status: 503 });
    expect((await readImportState(userId))?.status).toBe("interrupted");
    // aborted while checking: nothing at all
    const other = await person();
    const early = new AbortController();
    early.abort();
    const e2 = await runImport(other, file("heartrate.csv", csv), { clock, signal: early.signal }).catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(ImportStopped);
    expect(await stored(other)).toBe(0);
    expect((await readImportState(other))?.status).toBe("failed");
    await forgetImportsOf(userId);
    expect(spools()).toEqual([]);
  });

  it("a lost lease stops the work (another holder took it): the import does not go on storing", async () => {
    const userId = await person();
    const local = new ManualClock(clock.now());
    let stolen = false;
    const err = await runImport(userId, file("heartrate.csv", exportCsv(heartRows(12_000))), {
      clock: local,
      afterChunk: async () => {
        if (stolen) return;
        stolen = true;
        // the lease ran out (a long pause) and another import took it
        local.set(local.now() + 130_000);
        expect(await claimImportLease(userId, "someone-else", local.now())).toBe(true);
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportStopped);
    expect((err as ImportStopped).reason).toBe("lease_lost");
    const samples = Number(await sqlValue(`SELECT COUNT(*) FROM heart_rate WHERE userId = ?`, userId));
    expect(samples).toBeLessThan(12_000);
    await forgetImportsOf(userId);
  });
});

/** Every table's rows (a digest per table) and every file under the data directory (path, size, mtime). */
async function everything(): Promise<{ tables: Record<string, string>; files: string[] }> {
  const list = (await onPostgres())
    ? `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
    : `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`;
  const names = (await sqlAll<{ name: string }>(list)).map((r) => r.name);
  const tables: Record<string, string> = {};
  for (const t of names) {
    // (in a fixed order: PostgreSQL returns rows in any order)
    const rows = (await sqlAll(`SELECT * FROM "${t}"`)).map((r) => JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? String(v) : v))).sort();
    tables[t] = crypto
      .createHash("sha256")
      .update(JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? String(v) : v)))
      .digest("hex");
  }
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      // (the database's own files change as it is read: its WAL is checkpointed)
      else if (!/\.db(-wal|-shm|-journal)?$/.test(e.name)) {
        const st = fs.statSync(p);
        files.push(`${path.relative(DATA, p)} ${st.size} ${st.mtimeMs}`);
      }
    }
  };
  walk(DATA);
  return { tables, files: files.sort() };
}

describe("a dry run has no side effect", () => {
  it("changes no table and no file, and leaves an interrupted import resumable", async () => {
    const userId = await person();
    // an interrupted import of theirs, with its spool
    await runImport(userId, file("heartrate.csv", exportCsv(heartRows(3_000))), {
      clock,
      afterChunk: () => {
        throw new Error("the database went away");
      },
    }).catch(() => undefined);
    const interrupted = await readImportState(userId);
    expect(interrupted?.status).toBe("interrupted");
    expect(fs.existsSync(interrupted!.spoolDir!)).toBe(true);
    const f = path.join(dir, "dry.zip");
    await writeZip(f, [
      { name: "App Data/dailysleep.csv", data: exportCsv(docs.daily_sleep!) },
      { name: "App Data/heartrate.csv", data: exportCsv(heartRows(2_000)) },
      { name: "App Data/meal.csv", data: "id;day\n1;2026-01-01\n" },
    ]);
    const upload = fs.readFileSync(f);
    const before = await everything();
    const r = await runImport(userId, file("export.zip", upload), { clock, dryRun: true });
    expect(r.collections.daily_sleep).toMatchObject({ new: docs.daily_sleep!.length });
    // Ringside's own export (notes, a new tag, documents) neither
    const json = JSON.stringify({
      format: "ringside-export-v1",
      notes: [{ day: "2026-01-03", text: "a note", tags: ["brand-new"] }],
      tags: [{ name: "brand-new" }],
      collections: { daily_sleep: docs.daily_sleep!.slice(0, 3) },
    });
    expect(await runImport(userId, file("export.json", json), { clock, dryRun: true })).toMatchObject({ dryRun: true, tags: 1 });
    // refused dry runs neither
    await runImport(userId, file("bad.zip", upload.subarray(0, 100)), { clock, dryRun: true }).catch(() => undefined);
    expect(await everything()).toEqual(before);
    expect(await importStatus(userId)).toMatchObject({ status: "interrupted" });
    await forgetImportsOf(userId);
  });
});

describe("a start sweeps what a stop left", () => {
  it("removes spools no import can use, keeps an interrupted import's and a live process's; an import left checking is failed and its lease freed", async () => {
    const make = (name: string, owner: number | null) => {
      const d = path.join(IMPORTS, name);
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, "upload"), "x");
      if (owner !== null) fs.writeFileSync(path.join(d, ".owner"), String(owner));
      return d;
    };
    const checkingUser = await person();
    const interruptedUser = await person();
    const checking = make("checking-crashed", 2 ** 22 + 12345);
    const mine = make("same-pid", process.pid);
    const noOwner = make("no-owner", null);
    const live = make("live-process", process.ppid);
    const resumable = make("interrupted", process.pid);
    const base = { dryRun: false, kind: "csv" as const, file: null, rows: 0, totalRows: null, startedAt: 0, phaseStartedAt: 0, checkpoint: 0 };
    const common = { sources: [], message: null, options: { replaceNotes: false } };
    await saveImportState(checkingUser, { id: "checking-crashed", status: "checking", ...base, spoolDir: checking, ...common });
    await saveImportState(interruptedUser, { id: "interrupted", status: "interrupted", ...base, spoolDir: resumable, ...common });
    expect(await claimImportLease(checkingUser, "checking-crashed", clock.now())).toBe(true);
    const removed = await sweepImports({ clock });
    expect(removed.sort()).toEqual([checking, noOwner, mine].sort());
    expect(fs.existsSync(live) && fs.existsSync(resumable)).toBe(true);
    expect(await readImportState(checkingUser)).toMatchObject({ status: "failed", spoolDir: null });
    // its person may start again at once
    expect(await claimImportLease(checkingUser, "next", clock.now())).toBe(true);
    expect(await readImportState(interruptedUser)).toMatchObject({ status: "interrupted" });
    fs.rmSync(live, { recursive: true });
    await forgetImportsOf(interruptedUser);
    expect(spools()).toEqual([]);
  });

  it("removes the spool of a process killed but not yet reaped (a zombie: a server killed with its launcher)", async () => {
    // the child exits at once and its parent never reaps it (a shell may reap its background job
    // before its exec: under load the child was gone, not a zombie, once in four full runs)
    const parent = spawn("python3", ["-c", "import os,sys,time\npid=os.fork()\nif pid==0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(60)"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    try {
      const [line] = await events.once(readline.createInterface({ input: parent.stdout! }), "line");
      const zombie = Number(line);
      const state = () => fs.readFileSync(`/proc/${zombie}/stat`, "utf8").split(") ")[1]?.charAt(0);
      await waitFor("the child to exit", () => state() === "Z");
      const killed = path.join(IMPORTS, "killed-unreaped");
      fs.mkdirSync(killed, { recursive: true });
      fs.writeFileSync(path.join(killed, ".owner"), String(zombie));
      expect(await sweepImports({ clock })).toEqual([killed]);
      expect(spools()).toEqual([]);
    } finally {
      parent.kill("SIGKILL");
    }
  });
});

describe("removing a member stops and forgets their import", () => {
  it("during their import: none of their rows, files or state remain", async () => {
    const { removeMember } = await import("@/lib/services/household");
    const owner = await db.user.create({ data: { email: `bounds-owner-${crypto.randomUUID()}@example.test`, role: "owner" } });
    const member = await db.user.create({ data: { email: `bounds-member-${crypto.randomUUID()}@example.test`, role: "member" } });
    let removal: Promise<unknown> | null = null;
    const running = runImport(member.id, file("heartrate.csv", exportCsv(heartRows(12_000))), {
      clock,
      afterChunk: () => {
        // the owner removes them while their rows are being stored
        removal ??= removeMember(owner.id, member.id, { beforeDelete: forgetImportsOf });
      },
    }).catch((e: unknown) => e);
    expect(await running).toBeInstanceOf(Error);
    await removal;
    expect(Number(await sqlValue(`SELECT COUNT(*) FROM heart_rate WHERE userId = ?`, member.id))).toBe(0);
    expect(await readImportState(member.id)).toBeUndefined();
    expect(Number(await sqlValue(`SELECT COUNT(*) FROM "AppSetting" WHERE key LIKE ?`, `%${member.id}%`))).toBe(0);
    expect(spools()).toEqual([]);
  });
});
