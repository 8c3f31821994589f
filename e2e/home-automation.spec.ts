// Home Assistant over MQTT as a person turns it on: Settings → Home automation → "Publish to Home
// Assistant" (off until then; the cycle left out unless ticked), saved, and their device appears at
// the broker (the e2e app has MQTT_URL and keeps reconnecting until this spec starts its broker);
// turned off, the device goes. A subscriber acting as Home Assistant watches the broker.
import path from "node:path";
import Database from "better-sqlite3";
import { nodeIdOf } from "@/lib/home-assistant/topics";
import { FakeHomeAssistant } from "@/lib/test/home-assistant";
import { startMosquitto } from "@/lib/test/mosquitto.mjs";
import { expect, plantSessionPerson, SESSION_COOKIE, test } from "./fixtures";
import { E2E_APP_URL, E2E_DATA_DIR, E2E_MQTT_PORT } from "./support/ports";

const T = { baseTopic: "ringside", discoveryPrefix: "homeassistant" };

/** The app's database, read-only: what the UI saved. */
function readDb<T>(sql: string, ...params: string[]): T | undefined {
  const db = new Database(path.resolve(E2E_DATA_DIR, "ringside.db"), { readonly: true, fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    return db.prepare(sql).get(...params) as T | undefined;
  } finally {
    db.close();
  }
}

test("[HOME] Publish to Home Assistant: turned on in Settings, the person's device appears at the broker; turned off, it goes", async ({ browser }) => {
  const broker = await startMosquitto({ port: E2E_MQTT_PORT });
  const ha = await FakeHomeAssistant.connect(broker.url, T);
  const context = await browser.newContext({ baseURL: E2E_APP_URL });
  try {
    const token = plantSessionPerson("ha", "home-automation");
    const { userId } = readDb<{ userId: string }>(`SELECT userId FROM "Session" WHERE sessionToken = ?`, token)!;
    const email = readDb<{ email: string }>(`SELECT email FROM "User" WHERE id = ?`, userId)!.email;
    const node = nodeIdOf(userId);
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: E2E_APP_URL, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    await page.goto("/settings/home-automation");

    const section = page.getByRole("region", { name: "Home automation" });
    const publish = section.getByRole("checkbox", { name: "Publish to Home Assistant" });
    await expect(publish).not.toBeChecked();
    // the kinds as for a token: everything ticked but the cycle
    await expect(section.getByRole("checkbox", { name: "Sleep score" })).toBeChecked();
    await expect(section.getByRole("checkbox", { name: /^Your cycle/ })).not.toBeChecked();

    await publish.check();
    await section.getByRole("button", { name: "Save" }).click();
    await expect(section.getByRole("status")).toHaveText("Saved: publishing to Home Assistant.");
    const row = readDb<{ enabled: number; kinds: string }>(`SELECT enabled, kinds FROM home_assistant_publish WHERE userId = ?`, userId)!;
    expect(row.enabled).toBe(1);
    expect(JSON.parse(row.kinds)).toContain("daily_sleep");
    expect(JSON.parse(row.kinds)).not.toContain("cycle");

    // the device, as Home Assistant discovers it
    const sleep = await ha.until("the person's sleep score entity", () => ha.configsOf(node).get("sleep_score"), 45_000);
    expect(sleep.config.device).toMatchObject({ name: `Ringside — ${email}` });
    expect([...ha.configsOf(node).keys()]).not.toContain("cycle_phase");
    await ha.until("the person's state", () => ha.view.get(`ringside/${node}/state`), 45_000);

    await page.reload();
    await expect(section.getByRole("checkbox", { name: "Publish to Home Assistant" })).toBeChecked();
    await section.getByRole("checkbox", { name: "Publish to Home Assistant" }).uncheck();
    await section.getByRole("button", { name: "Save" }).click();
    await expect(section.getByRole("status")).toHaveText("Saved: not publishing.");
    await ha.until("the device gone", () => ha.configsOf(node).size === 0 && !ha.view.has(`ringside/${node}/state`), 45_000);
  } finally {
    await context.close();
    await ha.close();
    await broker.stop();
  }
});
