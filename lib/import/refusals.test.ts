// Bad uploads are refused with a message naming the file and row, storing nothing; and the
// import rules of the audit: a failure part-way is resumable from its checkpoint, a conflicting
// note is kept (and reported) unless replacing was chosen, one import at a time per person,
// and spooling keeps a free-disk margin.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/test/prisma";
import { AppError } from "@/lib/http/errors";
import { ManualClock } from "@/lib/clock";
import { generateRange } from "@/lib/emulator/generator";
import { setDayNote, getDayNote } from "@/lib/db/queries/notes";
import { claimImportLease, readImportState, releaseImportLease } from "@/lib/db/queries/imports";
import { IMPORT_MAX_UPLOADS, IMPORT_RETRY_AFTER_S, ImportBusy } from "@/lib/import/gate";
import { resumeImport, runImport, type ImportUpload, type RunOptions } from "@/lib/import/run";
import { discardImport } from "@/lib/import/status";
import { exportCsv, writeZip, type ZipFileSpec } from "@/lib/test/import-kit";
import { ZIP_LIMITS } from "@/lib/import/zip";
import { sqlAll, sqlValue } from "@/lib/test/sql";

const clock = new ManualClock(Date.parse("2026-03-15T12:00:00Z"));
const MB = 1024 * 1024;
const dir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, "refusals-"));
let people = 0;

async function person(): Promise<string> {
  return (await db.user.create({ data: { email: `import-refusal-${++people}@example.test` } })).id;
}

async function* once(data: Buffer | string): AsyncGenerator<Uint8Array> {
  yield Buffer.isBuffer(data) ? data : Buffer.from(data);
}
const file = (name: string, data: Buffer | string): ImportUpload => ({ type: "file", name, body: once(data) });

/** Rows a person has in every table an import writes. */
async function stored(userId: string): Promise<number> {
  let n = 0;
  for (const t of ["daily_sleep", "daily_readiness", "daily_activity", "sleep_period", "heart_rate", "rejected_document", "day_note", "tag"])
    n += Number(await sqlValue(`SELECT COUNT(*) FROM ${t} WHERE userId = ?`, userId));
  return n;
}

async function refused(upload: ImportUpload, opts: RunOptions = {}): Promise<{ status: number; message: string; stored: number }> {
  const userId = await person();
  try {
    await runImport(userId, upload, { clock, ...opts });
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const spools = fs.existsSync(`${process.env.DATA_DIR}/imports`) ? fs.readdirSync(`${process.env.DATA_DIR}/imports`) : [];
    expect(spools).toEqual([]);
    return { status: (err as AppError).status, message: (err as AppError).message, stored: await stored(userId) };
  }
  throw new Error("the import was not refused");
}

const docs = generateRange({ seed: "refusals", userKey: "someone" }, "2026-01-01", "2026-01-20");
// 12,000 samples: several chunks of the import (1,000 samples each)
const heartRows = Array.from({ length: 12_000 }, (_, i) => ({
  timestamp: new Date(Date.UTC(2026, 0, 5) + i * 300_000).toISOString().replace(".000Z", "+00:00"),
  bpm: 50 + (i % 40),
  source: i % 3 ? "awake" : "rest",
}));

async function zipOf(name: string, entries: ZipFileSpec[]): Promise<Buffer> {
  const f = path.join(dir, name);
  await writeZip(f, entries);
  return fs.readFileSync(f);
}

const goodEntries = (): ZipFileSpec[] => [
  { name: "App Data/dailysleep.csv", data: exportCsv(docs.daily_sleep!) },
  { name: "App Data/dailyreadiness.csv", data: exportCsv(docs.daily_readiness!) },
  { name: "App Data/SleepModel.csv", data: exportCsv(docs.sleep!) },
  { name: "App Data/heartrate.csv", data: exportCsv(heartRows) },
];

/** Replaces every occurrence of `from` with `to` (same length) in a ZIP's bytes (its local and central headers). */
function patch(buf: Buffer, from: string, to: string): Buffer {
  const out = Buffer.from(buf);
  const a = Buffer.from(from);
  for (let i = out.indexOf(a); i !== -1; i = out.indexOf(a, i + 1)) Buffer.from(to).copy(out, i);
  return out;
}

/** Sets an entry's declared unpacked size in its local header and the central directory. */
function declareSize(buf: Buffer, size: number): Buffer {
  const out = Buffer.from(buf);
  for (let i = out.indexOf(Buffer.from("PK\x03\x04", "latin1")); i !== -1; i = out.indexOf(Buffer.from("PK\x03\x04", "latin1"), i + 1))
    out.writeUInt32LE(size, i + 22);
  for (let i = out.indexOf(Buffer.from("PK\x01\x02", "latin1")); i !== -1; i = out.indexOf(Buffer.from("PK\x01\x02", "latin1"), i + 1))
    out.writeUInt32LE(size, i + 24);
  return out;
}

describe("bad uploads are refused, naming the file and row, and store nothing", () => {
  it("a good ZIP of the same files is stored (the control)", async () => {
    const userId = await person();
    const r = await runImport(userId, file("export.zip", await zipOf("good.zip", goodEntries())), { clock });
    expect(r.documents).toMatchObject({ daily_sleep: docs.daily_sleep!.length, heartrate: heartRows.length });
    expect(await stored(userId)).toBeGreaterThan(0);
  });

  it("a corrupt ZIP: not one, cut short, or an entry whose checksum does not match", async () => {
    const good = await zipOf("good.zip", goodEntries());
    expect(await refused(file("x.zip", Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), Buffer.alloc(2000, 7)])))).toMatchObject({
      status: 422,
      stored: 0,
      message: expect.stringContaining("corrupt or not a ZIP"),
    });
    expect(await refused(file("x.zip", good.subarray(0, Math.floor(good.length / 2))))).toMatchObject({ status: 422, stored: 0 });
    const plain = await zipOf("stored.zip", [{ name: "App Data/dailysleep.csv", data: exportCsv(docs.daily_sleep!), compress: false }]);
    const flipped = patch(
      plain,
      String(docs.daily_sleep![3]!.id),
      String(docs.daily_sleep![3]!.id).replace(/^./, (c) => (c === "a" ? "b" : "a")),
    );
    expect(await refused(file("x.zip", flipped))).toEqual({
      status: 422,
      stored: 0,
      message: "The ZIP is refused: App Data/dailysleep.csv is corrupt (its checksum does not match).",
    });
  });

  it("a ZIP bomb: an entry declaring more than the limit, one inflating past what it declares, an absurd ratio", async () => {
    const big = await zipOf("big.zip", [...goodEntries(), { name: "App Data/heartrate2.csv", data: "timestamp;bpm\n" + "x".repeat(3 * MB) }]);
    const limits = { ...ZIP_LIMITS, maxEntryBytes: 2 * MB };
    const declared = await refused(file("x.zip", big), { zipLimits: limits });
    expect(declared).toMatchObject({ status: 413, stored: 0 });
    expect(declared.message).toContain("App Data/heartrate2.csv declares 3 MB unpacked");
    const lying = declareSize(await zipOf("one.zip", [{ name: "App Data/dailysleep.csv", data: exportCsv(docs.daily_sleep!) }]), 100);
    expect(await refused(file("x.zip", lying))).toEqual({
      status: 413,
      stored: 0,
      message: "The ZIP is refused: App Data/dailysleep.csv unpacks to more than it declares (a ZIP bomb?).",
    });
    const ratio = await refused(file("x.zip", await zipOf("zeros.zip", [{ name: "zeros.csv", data: Buffer.alloc(4 * MB, 0x30) }])), {
      zipLimits: { ...ZIP_LIMITS, ratioFromBytes: MB, maxRatio: 100 as 400 },
    });
    expect(ratio).toMatchObject({ status: 413, stored: 0, message: expect.stringContaining("zeros.csv unpacks to") });
  });

  it("path tricks in entry names", async () => {
    const tricks: Array<[string, string]> = [
      ["aa/dailysleep.csv", "../dailysleep.csv"],
      ["aaa/dailysleep.csv", "/xx/dailysleep.csv"],
      ["aaa/dailysleep.csv", "C:/x/dailysleep.csv".slice(0, 18)],
      // a backslash is read as a separator (as archivers write them on Windows): `..\` is `../`
      ["aa/dailysleep.csv", "..\\dailysleep.csv"],
    ];
    for (const [name, trick] of tricks) {
      const zip = patch(await zipOf("trick.zip", [...goodEntries(), { name, data: exportCsv(docs.daily_sleep!) }]), name, trick);
      const r = await refused(file("x.zip", zip));
      expect({ trick, ...r }).toMatchObject({ trick, status: 422, stored: 0, message: expect.stringContaining("path trick") });
    }
  });

  it("an unknown delimiter, malformed JSON in a cell, a day outside the plausible range, a mismatched column count: in a ZIP or a CSV file", async () => {
    const cases: Array<[string, string, string]> = [
      ["dailysleep.csv", "id|day|score\na|2026-01-01|80\n", "dailysleep.csv, line 1: the delimiter is not one Ringside reads"],
      [
        "dailysleep.csv",
        'id;day;contributors\na;2026-01-01;"{""deep_sleep"":80}"\nb;2026-01-02;{deep_sleep:80}\n',
        "dailysleep.csv, row 2, column `contributors`: the cell is not valid JSON.",
      ],
      [
        "dailysleep.csv",
        "id;day;score\na;2026-01-01;80\nb;2008-01-02;80\n",
        'dailysleep.csv, row 2: the day "2008-01-02" is not a day between 2013-01-01 and 2026-03-17.',
      ],
      ["dailysleep.csv", "id;day;score\na;2026-01-01;80\nb;2026-01-02\n", "dailysleep.csv, row 2"],
      ["trends.csv", "date,Sleep Score,Readiness Score\n2026-01-01,80,70\n2026-13-01,80,70\n", "trends.csv, row 2: the date"],
    ];
    for (const [name, text, message] of cases) {
      const alone = await refused(file(name, text));
      expect({ name, status: alone.status, stored: alone.stored, message: alone.message.slice(0, message.length) }).toEqual({
        name,
        status: 422,
        stored: 0,
        message,
      });
      // in an archive, after good files: still nothing stored
      const zipped = await refused(file("x.zip", await zipOf("bad.zip", [...goodEntries(), { name: `App Data/${name}`, data: text }])));
      expect({ name, status: zipped.status, stored: zipped.stored, message: zipped.message.slice(0, message.length + 9) }).toEqual({
        name,
        status: 422,
        stored: 0,
        message: `App Data/${message}`,
      });
    }
  });
});

describe("the import rules (audit: medium — import)", () => {
  it("a failure part-way leaves the import interrupted at its checkpoint; it resumes from there to the same result as an import that never failed", async () => {
    const zip = await zipOf("resume.zip", goodEntries());
    const clean = await person();
    await runImport(clean, file("export.zip", zip), { clock });

    const userId = await person();
    let chunks = 0;
    const failing = await runImport(userId, file("export.zip", zip), {
      clock,
      afterChunk: () => {
        if (++chunks === 1) throw new Error("the database went away");
      },
    }).catch((e: unknown) => e);
    expect(failing).toBeInstanceOf(AppError);
    expect((failing as AppError).status).toBe(503);
    const state = (await readImportState(userId))!;
    expect(state.status).toBe("interrupted");
    expect(state.checkpoint).toBeGreaterThan(0);
    expect(state.checkpoint).toBeLessThan(state.totalRows!);
    expect(fs.existsSync(state.spoolDir!)).toBe(true);
    const partial = await stored(userId);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(await stored(clean));

    const resumed = await resumeImport(userId, { clock });
    expect(resumed.rejected).toBe(0);
    for (const t of ["daily_sleep", "daily_readiness", "sleep_period"]) {
      const rows = (u: string) => sqlAll(`SELECT documentId, day, raw FROM ${t} WHERE userId = ? ORDER BY documentId`, u);
      expect(await rows(userId)).toEqual(await rows(clean));
    }
    expect(await sqlAll(`SELECT day, count, samples FROM heart_rate WHERE userId = ? ORDER BY day`, userId)).toEqual(
      await sqlAll(`SELECT day, count, samples FROM heart_rate WHERE userId = ? ORDER BY day`, clean),
    );
    expect((await readImportState(userId))?.status).toBe("done");
    expect(fs.existsSync(state.spoolDir!)).toBe(false);
    await expect(resumeImport(userId, { clock })).rejects.toMatchObject({ status: 409 });
  });

  it("an interrupted import can be discarded instead (its spool goes)", async () => {
    const userId = await person();
    await runImport(userId, file("export.zip", await zipOf("discard.zip", goodEntries())), {
      clock,
      afterChunk: () => Promise.reject(new Error("disk error")),
    }).catch(() => undefined);
    const state = (await readImportState(userId))!;
    expect(state.status).toBe("interrupted");
    await discardImport(userId, { clock });
    expect(fs.existsSync(state.spoolDir!)).toBe(false);
    expect(await readImportState(userId)).toBeUndefined();
  });

  it("a note that differs from the person's own is kept and reported, unless they choose to replace it", async () => {
    const userId = await person();
    await setDayNote({ userId, day: "2026-01-05", text: "my own words", tags: ["mine"] });
    const exportFile = JSON.stringify({
      format: "ringside-export-v1",
      collections: {},
      notes: [
        { day: "2026-01-05", text: "late dinner", tags: ["alcohol"] },
        { day: "2026-01-06", text: "a new day", tags: [] },
      ],
    });
    const dry = await runImport(userId, file("export.json", exportFile), { clock, dryRun: true });
    expect(dry.notes).toEqual({ new: 1, unchanged: 0, replaced: 0, conflicting: 1, conflicts: ["2026-01-05"] });
    const kept = await runImport(userId, file("export.json", exportFile), { clock });
    expect(kept.notes).toEqual({ new: 1, unchanged: 0, replaced: 0, conflicting: 1, conflicts: ["2026-01-05"] });
    expect(await getDayNote({ userId, day: "2026-01-05" })).toMatchObject({ text: "my own words", tags: [{ name: "mine" }] });
    expect((await getDayNote({ userId, day: "2026-01-06" })).text).toBe("a new day");
    const replaced = await runImport(userId, file("export.json", exportFile), { clock, replaceNotes: true });
    expect(replaced.notes).toEqual({ new: 0, unchanged: 1, replaced: 1, conflicting: 0, conflicts: [] });
    expect(await getDayNote({ userId, day: "2026-01-05" })).toMatchObject({ text: "late dinner", tags: [{ name: "alcohol" }] });
  });

  it("one import at a time per person (409 while another process holds their lease); per process, whole uploads take the slot in turn and past the most it takes: 429 with a retry delay", async () => {
    const userId = await person();
    // another process's import of theirs (its lease)
    expect(await claimImportLease(userId, "another-process", clock.now())).toBe(true);
    const second = await runImport(userId, file("b.json", '{"format":"ringside-export-v1","collections":{}}'), { clock }).catch((e: unknown) => e);
    expect(second).toMatchObject({ status: 409, message: "An import of yours is already running: wait for it to finish." });
    await releaseImportLease(userId, "another-process", clock.now());

    // a slow upload holds no slot while it arrives: another person's import runs meanwhile
    let arrive!: () => void;
    const arrived = new Promise<void>((r) => (arrive = r));
    async function* slow(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('{"format":"ringside-export-v1",');
      await arrived;
      yield Buffer.from('"collections":{},"notes":[{"day":"2026-01-01","text":"first","tags":[]}]}');
    }
    const first = runImport(userId, { type: "file", name: "a.json", body: slow() }, { clock });
    try {
      while ((await readImportState(userId))?.status !== "checking") await new Promise((r) => setImmediate(r));
      await expect(runImport(await person(), file("c.json", '{"format":"ringside-export-v1","collections":{}}'), { clock })).resolves.toMatchObject({
        kind: "ringside",
      });
    } finally {
      arrive();
    }
    await expect(first).resolves.toMatchObject({ notes: { new: 1 } });

    // the slot is taken once the upload is spooled: while one import stores, another whole upload waits its turn
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let storing!: () => void;
    const isStoring = new Promise<void>((r) => (storing = r));
    const holder = runImport(await person(), file("heartrate.csv", exportCsv(heartRows)), {
      clock,
      afterChunk: async () => {
        storing();
        await released;
      },
    });
    await isStoring;
    let waitedDone = false;
    const waiter = runImport(await person(), file("c.json", '{"format":"ringside-export-v1","collections":{}}'), { clock, dryRun: true }).then((r) => {
      waitedDone = true;
      return r;
    });
    // more imports than the server takes at once: 429 at once, with how long to wait, the upload not read
    const fill = Array.from({ length: IMPORT_MAX_UPLOADS - 2 }, async () =>
      runImport(await person(), file("g.json", '{"format":"ringside-export-v1","collections":{}}'), { clock, dryRun: true }),
    );
    let read = false;
    async function* unread(): AsyncGenerator<Uint8Array> {
      read = true;
      yield Buffer.from("{}");
    }
    try {
      const stranger = await person();
      const busy = await runImport(stranger, { type: "file", name: "h.json", body: unread() }, { clock, dryRun: true }).catch((e: unknown) => e);
      expect(busy).toBeInstanceOf(ImportBusy);
      expect(busy).toMatchObject({ status: 429, retryAfterS: IMPORT_RETRY_AFTER_S });
      expect(read).toBe(false);
      expect(waitedDone).toBe(false);
    } finally {
      release();
    }
    await expect(holder).resolves.toMatchObject({ kind: "csv" });
    await expect(waiter).resolves.toMatchObject({ dryRun: true, kind: "ringside" });
    for (const f of fill) await expect(f).resolves.toMatchObject({ dryRun: true });
    // and once it is done, the next one runs
    await expect(runImport(userId, file("d.json", '{"format":"ringside-export-v1","collections":{}}'), { clock })).resolves.toMatchObject({ kind: "ringside" });
  });

  it("an upload that stalls is stopped: at its deadline (408) or when its connection closes, leaving no spool, slot or lease", async () => {
    const spoolsLeft = () => (fs.existsSync(`${process.env.DATA_DIR}/imports`) ? fs.readdirSync(`${process.env.DATA_DIR}/imports`) : []);
    async function* stalled(): AsyncGenerator<Uint8Array> {
      yield Buffer.from("id;day;score\n");
      await new Promise<void>(() => undefined);
    }
    const deadline = new AbortController();
    const late = await person();
    const timedOut = runImport(late, { type: "file", name: "dailysleep.csv", body: stalled() }, { clock, uploadDeadline: deadline.signal }).catch(
      (e: unknown) => e,
    );
    while ((await readImportState(late))?.status !== "checking") await new Promise((r) => setImmediate(r));
    deadline.abort();
    expect(await timedOut).toMatchObject({ status: 408, message: expect.stringContaining("took too long") });
    expect(await stored(late)).toBe(0);

    const closed = new AbortController();
    const gone = await person();
    const abandoned = runImport(gone, { type: "file", name: "dailysleep.csv", body: stalled() }, { clock, signal: closed.signal }).catch((e: unknown) => e);
    while ((await readImportState(gone))?.status !== "checking") await new Promise((r) => setImmediate(r));
    closed.abort();
    expect(await abandoned).toMatchObject({ name: "ImportStopped", reason: "aborted" });
    expect((await readImportState(gone))?.status).toBe("failed");
    expect(spoolsLeft()).toEqual([]);
    // neither holds the person's lease nor the server's slot
    for (const userId of [late, gone])
      await expect(runImport(userId, file("e.json", '{"format":"ringside-export-v1","collections":{}}'), { clock })).resolves.toMatchObject({
        kind: "ringside",
      });
  }, 20_000);

  it("spooling refuses when the disk's free space would fall below the margin (507), at the start or part-way, storing nothing", async () => {
    const text = exportCsv(heartRows);
    expect(await refused(file("heartrate.csv", text), { spool: { freeBytes: async () => 500 * MB, minFreeBytes: 512 * MB } })).toMatchObject({
      status: 507,
      stored: 0,
    });
    let calls = 0;
    const body = async function* () {
      for (let i = 0; i < 20; i++) yield Buffer.alloc(MB, 0x41);
    };
    const partWay = await refused(
      { type: "file", name: "big.csv", body: body() },
      { spool: { freeBytes: async () => (++calls === 1 ? 2048 * MB : 510 * MB), minFreeBytes: 512 * MB } },
    );
    expect(partWay).toMatchObject({ status: 507, stored: 0, message: expect.stringContaining("disk is almost full") });
    expect(calls).toBeGreaterThan(1);
  });
});
