// What a person sees when the ring service sends a value Ringside has never seen: the
// emulator's latest resilience and stress documents get a new `level` / `day_summary`
// (PATCH /_emulator/users/{id}/documents/…, which also notifies the app), the documents are
// stored — the field as unknown — and the charts show a gap on that day: Today's badge reads
// "—", the trends strip reads "no value" for that day, the day's other numbers are still shown.
import { connectRing, expect, test, uniqueEmail, waitForBackfill } from "./fixtures";
import { waitForChart } from "./dashboard-support";
import { E2E_APP_URL, E2E_EMULATOR_URL } from "./support/ports";

type Doc = Record<string, unknown> & { id: string; day: string };
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

async function latestDoc(ringUserId: string, collection: string): Promise<Doc> {
  const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/users/${ringUserId}/documents/${collection}`);
  const { data } = (await res.json()) as { data: Doc[] };
  return data.reduce((a, b) => (b.day > a.day ? b : a));
}

async function edit(ringUserId: string, collection: string, id: string, fields: Record<string, unknown>) {
  const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/users/${ringUserId}/documents/${collection}/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(fields),
  });
  expect(res.status).toBe(200);
}

test("[TOLERANCE] documents with never-seen values are stored and charted, the unknown field as a gap", async ({ browser, appDb }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: E2E_APP_URL });
  const page = await context.newPage();
  try {
    // a person of their own (ALLOWED_EMAILS admits the e2e domain), so no other spec's data changes
    const { ringUserId } = await connectRing(page, { email: uniqueEmail("tolerance"), historyDays: 40 });
    await expect(page).toHaveURL(`${E2E_APP_URL}/`);
    const user = appDb.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ringUserId) as { id: string };
    await waitForBackfill(appDb, user.id);

    const resilience = await latestDoc(ringUserId, "daily_resilience");
    const stress = await latestDoc(ringUserId, "daily_stress");
    await edit(ringUserId, "daily_resilience", resilience.id, { level: "legendary" });
    await edit(ringUserId, "daily_stress", stress.id, { day_summary: "frantic" });
    // the edits notify the app; "Sync now" re-reads the recent days as well
    expect((await page.request.post("/api/sync", { headers: { origin: E2E_APP_URL } })).status()).toBe(202);
    const stored = (table: string, field: string, id: string) =>
      appDb.prepare(`SELECT ${field} AS v, raw FROM ${table} WHERE userId = ? AND documentId = ?`).get(user.id, id) as
        { v: string | null; raw: string } | undefined;
    await expect.poll(() => stored("daily_resilience", "level", resilience.id)?.raw.includes('"legendary"'), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => stored("daily_stress", "day_summary", stress.id)?.raw.includes('"frantic"'), { timeout: 30_000 }).toBe(true);
    expect(stored("daily_resilience", "level", resilience.id)!.v).toBeNull();
    expect(stored("daily_stress", "day_summary", stress.id)!.v).toBeNull();
    const rejected = appDb.prepare(`SELECT COUNT(*) AS n FROM rejected_document WHERE userId = ?`).get(user.id) as { n: number };
    expect(rejected.n).toBe(0);

    // Today: the badges read "—", the day's other numbers are there
    await page.goto("/");
    await expect(page.getByTestId("today")).toHaveAttribute("data-chart-ready", "true");
    await expect(page.getByTestId("value-resilience.level")).toHaveText("—");
    await expect(page.getByTestId("value-stress.day_summary")).toHaveText("—");
    await expect(page.locator('[data-metric="resilience"]')).toContainText("Sleep recovery");

    // Trends: the resilience strip has a gap that day ("no value"), the day before reads its level
    await page.goto("/trends?m=resilience.level&range=30d");
    await waitForChart(page);
    const strip = page.getByTestId("trend-panel").locator("[tabindex='0']").first();
    await strip.focus();
    await page.keyboard.press("End");
    const live = page.getByTestId("trend-panel").locator("[aria-live=polite]").first();
    const readDay = async () => {
      const text = (await live.textContent()) ?? "";
      const m = /^\w{3} (\d{1,2}) (\w{3}) (\d{4}): (.+)$/.exec(text);
      expect(m, `live region said "${text}"`).toBeTruthy();
      return { day: `${m![3]}-${String(MONTHS.indexOf(m![2]!) + 1).padStart(2, "0")}-${m![1]!.padStart(2, "0")}`, said: m![4]! };
    };
    let read = await readDay();
    for (let i = 0; i < 30 && read.day > resilience.day; i++) {
      await page.keyboard.press("ArrowLeft");
      read = await readDay();
    }
    expect(read).toEqual({ day: resilience.day, said: "no value" });
    const levels = await (await fetch(`${E2E_EMULATOR_URL}/_emulator/users/${ringUserId}/documents/daily_resilience`)).json();
    const dayBefore = (levels.data as Doc[]).filter((d) => d.day < resilience.day).at(-1);
    if (dayBefore) {
      for (let i = 0; i < 30 && read.day > dayBefore.day; i++) {
        await page.keyboard.press("ArrowLeft");
        read = await readDay();
      }
      expect(read.day).toBe(dayBefore.day);
      expect(read.said.toLowerCase()).toBe(String(dayBefore.level));
    }
  } finally {
    await context.close();
  }
});
