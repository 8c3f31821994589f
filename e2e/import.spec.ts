import fs from "node:fs";
import path from "node:path";
import { clock } from "@/lib/clock";
import { addDays, utcDay } from "@/lib/days";
import { screenshot } from "./dashboard-support";
import { expect, test, testPerson, uniqueEmail } from "./fixtures";
import { emulatorControl } from "./support/emulator-control";
import { exportCsv, writeZip, type ZipFileSpec } from "@/lib/test/import-kit";
import { RING_COLLECTIONS } from "@/lib/resources";

// Settings → Import with the ring maker's account export: choose the ZIP, check it first (the
// dry-run summary), confirm, watch the progress (file, rows, ETA), then see the history on
// Trends — on a phone and on a desktop. The ZIP is written from the emulator's documents of a
// planted person, plus a long heart-rate file so that storing takes long enough to be watched.

const ZIP = path.resolve(import.meta.dirname, "test-results", "import-fixture.zip");
const HEART_SAMPLES = 100_000;
/**
 * A sample's heart rate: 45–124 bpm, scattered by a multiplicative hash as real samples are. A
 * periodic series (55 + j mod 30) compressed about 20 % better than this, and the upload's CPU
 * budget is a share per MiB received (lib/import/budget.ts), so it was smaller than a real export's.
 */
const bpmAt = (j: number): number => 45 + ((Math.imul(j, 2654435761) >>> 24) % 80);

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  await emulatorControl.ensureClient();
  const planted = await emulatorControl.createUser(uniqueEmail("import-planted"), testPerson("import › the planted export", { history_days: 90 }));
  const entries: ZipFileSpec[] = [];
  for (const [i, c] of RING_COLLECTIONS.entries()) {
    const docs = await emulatorControl.documents(planted.user_id, c);
    const name = c === "sleep" ? "SleepModel" : i % 2 ? c.replace(/_/g, "") : `Oura${c.replace(/(^|_)(\w)/g, (_, __, ch: string) => ch.toUpperCase())}`;
    entries.push({ name: `Oura/App Data/${name}.csv`, data: exportCsv(docs, { bom: i % 3 === 0 }) });
  }
  // a sample every 5 minutes, ending yesterday (the run's clock, as the app's)
  const end = Date.parse(`${addDays(utcDay(clock.now()), -1)}T00:00:00Z`);
  entries.push({
    name: "Oura/App Data/heartrate.csv",
    data: async function* () {
      yield "timestamp;bpm;source\r\n";
      for (let i = HEART_SAMPLES; i > 0; i -= 1_000) {
        let chunk = "";
        for (let j = i; j > Math.max(0, i - 1_000); j--)
          chunk += `${new Date(end - j * 300_000).toISOString().replace(".000Z", "+00:00")};${bpmAt(j)};awake\r\n`;
        yield chunk;
      }
    },
  });
  entries.push({ name: "Oura/App Data/meal.csv", data: "id;day;meal_type\r\n1;2026-01-01;lunch\r\n" });
  fs.mkdirSync(path.dirname(ZIP), { recursive: true });
  await writeZip(ZIP, entries);
});

for (const layout of [
  { name: "phone", viewport: { width: 390, height: 844 } },
  { name: "desktop", viewport: { width: 1280, height: 860 } },
]) {
  test.describe(`on a ${layout.name}`, () => {
    test.use({ viewport: layout.viewport });

    test(`[IMPORT] the account export: check first, confirm, watch the progress, see the history on Trends (${layout.name})`, async ({ page, login }) => {
      // two reads of 100,000 rows and more: minutes on a busy machine
      test.setTimeout(300_000);
      // a person who shares no data with Ringside (as after a lapsed membership): the history on Trends is the import's
      await login({ backfill: false, scope: "email" });
      await page.goto("/settings/data");
      const section = page.getByRole("region", { name: "Import" });
      await section.getByLabel("Files to import").setInputFiles(ZIP);

      await section.getByRole("button", { name: "Check first" }).click();
      const summary = section.getByTestId("import-summary");
      await expect(summary).toHaveAttribute("data-dry-run", "true", { timeout: 180_000 });
      await expect(summary.getByRole("table")).toContainText("What the import would store");
      await expect(summary.getByTestId("import-row-daily_sleep").getByTestId("new")).not.toHaveText("0");
      await expect(summary.getByTestId("import-row-heartrate")).toContainText("100,000");
      await expect(section.getByTestId("import-unmapped")).toContainText(/meal\.csv — [\d.,]+ (bytes|kB)/);

      await section.getByRole("button", { name: "Confirm import" }).click();
      const progress = section.getByTestId("import-progress");
      const done = section.getByTestId("import-done");
      // the progress while it stores; on a quick machine the page's poll can land after the end
      await expect(progress.or(done)).toBeVisible({ timeout: 120_000 });
      if (await progress.isVisible()) {
        // the progress while it stores: its status, bar and text, read in one step each time (the
        // import may end, and the progress give way to the result, between two reads: it did
        // once under load); it must show a proper storing state unless it ended first (after
        // the confirmation the files are checked again before storing: under load that took
        // over 10 s once, so the wait is long; a state that holds returns at once)
        const read = () =>
          section.evaluate((el) => {
            const p = el.querySelector('[data-testid="import-progress"]');
            const bar = el.querySelector('[role="progressbar"][aria-label="Import progress"]');
            if (!p) return "ended";
            const status = p.getAttribute("data-status");
            const valueNow = bar?.getAttribute("aria-valuenow") ?? "";
            const text = p.textContent ?? "";
            return status === "storing" && /^\d+$/.test(valueNow) && /Storing .*\.csv · [\d,]+ of [\d,]+ rows/.test(text)
              ? "storing"
              : `not yet: ${status} ${valueNow} ${text}`;
          });
        await expect.poll(read, { timeout: 120_000 }).toMatch(/^(storing|ended)$/);
        if (await progress.isVisible()) await screenshot(page, `import-progress-${layout.name}`);
      }

      // the end: done, or a refusal or a stop, whose words the failure then gives
      const failed = section.getByTestId("import-error").or(section.getByTestId("import-interrupted"));
      await expect(done.or(failed)).toBeVisible({ timeout: 180_000 });
      expect((await failed.isVisible()) ? await failed.innerText() : "done").toBe("done");
      await expect(section.getByTestId("import-summary")).toHaveAttribute("data-dry-run", "false");
      await screenshot(page, `import-done-${layout.name}`);

      await section.getByRole("link", { name: "See it on Trends" }).click();
      await expect(page).toHaveURL(/\/trends/);
      await expect(page.locator('[data-chart-ready="true"]').first()).toBeVisible({ timeout: 60_000 });
      const to = utcDay(clock.now());
      const from = addDays(to, -120);
      const res = await page.request.get(`/api/metrics/sleep.score?from=${from}&to=${to}`);
      expect(res.status()).toBe(200);
      const series = (await res.json()) as { value: Array<number | null> };
      expect(series.value.filter((v) => v !== null).length).toBeGreaterThan(30);
    });
  });
}
