// Issue 44: killing the server while an import is checking, then starting it again, leaves no
// spool file; the import is told as failed (not "checking" for ever) and its person can start
// another at once (the dead process's lease is freed).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** Every file under the data directory's import spools. */
function spoolFiles(dataDir: string): string[] {
  const root = path.join(dataDir, "imports");
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).flatMap((e) => (e.isFile() ? [path.join(e.parentPath, e.name)] : []));
}

/** A heart-rate CSV of `rows` samples, one a minute, ending a day ago. */
function heartRateCsv(rows: number): Buffer {
  const start = Math.floor(Date.now() / 60_000 - rows - 1_440) * 60_000;
  const lines = ["timestamp;bpm;source"];
  for (let i = 0; i < rows; i++) lines.push(`${new Date(start + i * 60_000).toISOString().replace(".000Z", "+00:00")};${50 + (i % 40)};awake`);
  return Buffer.from(lines.join("\n") + "\n");
}

describe("[CHAOS] killed while an import is checking", () => {
  it("SIGKILL during the check, then a start: no spool file, the import failed, a new one runs", { timeout: 240_000 }, async () => {
    const email = `import-kill-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
    await emu.createUser(email, { history_days: 10 });
    const { browser } = await connect(email);
    // big enough that its check runs a while (about 40 MB: a million samples)
    const csv = heartRateCsv(1_000_000);
    const upload = browser
      .fetch("/api/import", { method: "POST", headers: { "content-type": "text/csv", "x-file-name": "heartrate.csv" }, body: new Uint8Array(csv) })
      .catch(() => null);
    // checking, rows read: the upload is spooled and being read
    const deadline = Date.now() + 60_000;
    for (;;) {
      const s = await browser.json<{ status: string; rows: number }>("/api/import");
      if (s.body.status === "checking" && s.body.rows > 0) break;
      expect(s.body.status, "the import must still be checking when it is killed").not.toBe("storing");
      if (Date.now() > deadline) throw new Error(`the import never reached its check: ${JSON.stringify(s.body)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(spoolFiles(app.dataDir).length).toBeGreaterThan(0);
    await app.kill();
    await upload;
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
    expect(again.status).toBe(200);
    expect(again.body.documents.heartrate).toBe(1_000);
    expect(spoolFiles(app.dataDir)).toEqual([]);
  });
});
