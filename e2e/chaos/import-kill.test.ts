// Issue 44: killing the server while an import is checking, then starting it again, leaves no
// spool file; the import is told as failed (not "checking" for ever) and its person can start
// another at once (the dead process's lease is freed).
//
// Driven by the app's state, never by the machine's speed: the upload is a Ringside export sent
// as a stream that the case keeps open, so the import cannot get past its check before the kill.
// The export is checked as it arrives (lib/import/run.ts): the case sends more of it until
// GET /api/import says "checking" with rows read, then kills the server with the rest unsent.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock, serviceInstant } from "@/lib/clock";
import { connect } from "./support/browser";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { ALLOWED_DOMAIN } from "./support/env";
import { startProdApp, type ProdApp } from "./support/prod-app";

let emu: Emulator;
let app: ProdApp;

beforeAll(async () => {
  emu = await startChaosEmulator({ historyDays: 10 });
  app = await startProdApp({ name: "import-kill" });
});

afterAll(async () => {
  await app?.stop();
  await emu?.close();
});

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Every file under the data directory's import spools. */
function spoolFiles(dataDir: string): string[] {
  const root = path.join(dataDir, "imports");
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).flatMap((e) => (e.isFile() ? [path.join(e.parentPath, e.name)] : []));
}

/**
 * The first minute of a heart-rate series of `rows` samples, one a minute, ending a day before
 * the app's "now": the suite's clock, which every process of the run reads (a sample dated by
 * the machine's clock can lie in the app's future, and the import refuses those).
 */
function seriesStart(rows: number): number {
  return Math.floor((clock.now() - DAY_MS) / MINUTE_MS) * MINUTE_MS - rows * MINUTE_MS;
}

/** The series' sample `i`. */
function sample(start: number, i: number): { timestamp: string; bpm: number; source: string } {
  return { timestamp: serviceInstant(start + i * MINUTE_MS), bpm: 50 + (i % 40), source: "awake" };
}

/** A heart-rate CSV of `rows` samples. */
function heartRateCsv(rows: number): Buffer {
  const start = seriesStart(rows);
  const lines = Array.from({ length: rows }, (_, i) => sample(start, i)).map((s) => `${s.timestamp};${s.bpm};${s.source}`);
  return Buffer.from(["timestamp;bpm;source", ...lines].join("\n") + "\n");
}

describe("[CHAOS] killed while an import is checking", () => {
  it("SIGKILL during the check, then a start: no spool file, the import failed, a new one runs", { timeout: 240_000 }, async () => {
    const email = `import-kill-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
    await emu.createUser(email, { history_days: 10 });
    const { browser } = await connect(email);

    // A Ringside export of heart-rate samples whose end is never sent: a chunk at a time, each
    // sent once the app has taken the one before (the stream's backpressure), one per poll.
    const CHUNK = 5_000;
    // (far more than a second of polls sends: a bound, never reached)
    const PLANNED = 2_000_000;
    const start = seriesStart(PLANNED);
    let sent = 0;
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) }, { highWaterMark: 1 });
    feed.enqueue(Buffer.from(`{"format":"ringside-export-v1","collections":{"heartrate":[`));
    const sendChunk = () => {
      const part = Array.from({ length: CHUNK }, (_, i) => JSON.stringify(sample(start, sent + i)));
      feed.enqueue(Buffer.from((sent === 0 ? "" : ",") + part.join(",")));
      sent += part.length;
    };
    const upload = browser
      .fetch("/api/import", {
        method: "POST",
        headers: { "content-type": "application/json", "x-file-name": "export.json" },
        body,
        duplex: "half",
      } as RequestInit)
      .then((res) => ({ status: res.status }))
      .catch((err: unknown) => ({ error: String(err) }));

    // "checking" with rows read: the export is being checked as it arrives, its spool written
    // (a safety net only: the import cannot end while its upload is open)
    const deadline = Date.now() + 180_000;
    for (;;) {
      const s = await browser.json<{ status: string; rows: number }>("/api/import");
      if (s.body.status === "checking" && s.body.rows > 0) break;
      expect({ status: s.status, state: s.body.status }, "the import must be checking until it is killed").toMatchObject({ status: 200 });
      expect(["idle", "checking"], JSON.stringify(s.body)).toContain(s.body.status);
      if (Date.now() > deadline) throw new Error(`the import never reported rows checked (${sent} sent): ${JSON.stringify(s.body)}`);
      if (sent >= PLANNED) throw new Error(`the whole planned export was sent without the import reporting rows checked: ${JSON.stringify(s.body)}`);
      if ((feed.desiredSize ?? 0) > 0) sendChunk();
      // (the pace of the polls, not a wait for something: the app records rows once a second)
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(spoolFiles(app.dataDir).length).toBeGreaterThan(0);
    await app.kill();
    // the upload ended with the connection, not with an answer
    expect(await upload).toMatchObject({ error: expect.any(String) });
    try {
      feed.close();
    } catch {
      /* cancelled with the connection */
    }
    // the crash left its spool
    expect(spoolFiles(app.dataDir).length).toBeGreaterThan(0);

    await app.start();
    expect(spoolFiles(app.dataDir)).toEqual([]);
    const after = await browser.json<{ status: string; message: string | null }>("/api/import");
    expect(after.body).toMatchObject({ status: "failed", message: expect.stringContaining("stopped while it was checking") });
    // its person may import again at once (the dead process's lease is free)
    const again = await browser.json<{ documents: Record<string, number> }>("/api/import", {
      method: "POST",
      headers: { "content-type": "text/csv", "x-file-name": "heartrate.csv" },
      body: new Uint8Array(heartRateCsv(1_000)),
    });
    expect({ status: again.status, body: again.body }).toMatchObject({ status: 200, body: { documents: { heartrate: 1_000 } } });
    expect(spoolFiles(app.dataDir)).toEqual([]);
  });
});
