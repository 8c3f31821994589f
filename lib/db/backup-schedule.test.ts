import { clock } from "@/lib/clock";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/test/prisma";
import { runDailyBackupIfDue } from "@/lib/db/backup-schedule";
import { claimLease } from "@/lib/db/queries/app-settings";

describe("daily backup", () => {
  it("takes one backup a day once the hour has come, and prunes to the retention count", async () => {
    await db.user.count(); // the database file exists
    const dir = path.join(process.env.DATA_DIR!, "backups-test");
    fs.mkdirSync(dir, { recursive: true });
    for (const d of ["20200101", "20200102", "20200103"]) fs.writeFileSync(path.join(dir, `ringside-daily-${d}T030000Z.db`), "");
    const at = (h: number) => {
      const d = clock.date();
      d.setHours(h, 30, 0, 0);
      return d;
    };
    const opts = { hour: 3, dir, keep: 2 };
    expect(await runDailyBackupIfDue(at(2), opts)).toBeNull(); // too early
    const first = await runDailyBackupIfDue(at(4), opts);
    expect(first).not.toBeNull();
    expect(fs.existsSync(first!)).toBe(true);
    expect(await runDailyBackupIfDue(at(5), opts)).toBeNull(); // already taken today
    const kept = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith("ringside-daily-"))
      .sort();
    expect(kept).toHaveLength(2);
    expect(kept).toContain(path.basename(first!));
    expect(await runDailyBackupIfDue(at(4), { ...opts, hour: -1 })).toBeNull(); // turned off
  });

  it("several processes on one database: the one holding the lease takes the day's backup, the others leave it", async () => {
    await db.user.count();
    const dir = path.join(process.env.DATA_DIR!, "backups-lease-test");
    const now = clock.date();
    now.setDate(now.getDate() + 1); // tomorrow: the lease of the backup above has run out
    now.setHours(4, 0, 0, 0);
    // Another process took the lease a minute ago (its backup is under way).
    expect(await claimLease("daily-backup", "another-process", 30 * 60_000, now.getTime() - 60_000)).toBe(true);
    expect(await runDailyBackupIfDue(now, { hour: 3, dir, keep: 2 })).toBeNull();
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    // It died without a backup: once its lease has run out, this process takes it.
    const later = new Date(now.getTime() + 31 * 60_000);
    const file = await runDailyBackupIfDue(later, { hour: 3, dir, keep: 2 });
    expect(file).not.toBeNull();
    expect(fs.readdirSync(dir)).toEqual([path.basename(file!)]);
  });
});
