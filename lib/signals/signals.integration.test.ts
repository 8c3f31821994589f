// The explained signals end to end on the real (temporary) database: a person's history planted
// through Ringside's own import (POST /api/import with a "ringside-export-v1" file), read back
// through the read API with a personal access token (GET /api/v1/signals), the early_warning
// alert delivered through a real ntfy receiver by the real alerts worker on a manual clock,
// and the derived export. Three nights with +1.0 °C, +7 bpm, −30 % HRV and +2/min against an
// otherwise steady history: `likely` on those nights, `none` on the steady nights before, one
// message for the episode however often the worker looks or the data is imported again.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DATA_KINDS } from "@/lib/auth/api-scopes";
import { addDays, dayRange } from "@/lib/days";
import { plantedHistory } from "@/lib/test/signal-history";
import { startNtfyReceiver, type NtfyReceiver } from "@/lib/test/alert-receivers";
import { ManualClock } from "@/lib/test/alert-kit";
import type { SignalsResponse } from "@/lib/services/signals";

// the ntfy receiver listens on this machine, as ntfy on the LAN would (read when the alerts load)
process.env.ALERT_ALLOWED_PRIVATE_HOSTS = "127.0.0.1";

const USER = "u-signals";
const FROM = "2026-01-01";
const LAST = "2026-04-10";
const history = plantedHistory({ from: FROM, to: LAST, episodeNights: 3, offset: "+14:00" });

const session = vi.hoisted(() => ({ user: { id: "u-signals", email: "signals@example.test", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({ requireUser: async () => session.user, currentUser: async () => session.user }));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let ntfy: NtfyReceiver;
let token = "";

async function importHistory(): Promise<{ status: number; body: { documents: Record<string, number>; rejected: number } }> {
  const { POST } = await import("@/app/api/import/route");
  const res = await (POST as unknown as Handler)(
    new Request("http://localhost/api/import", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost" },
      body: JSON.stringify(history.file),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, body: await res.json() };
}

async function readSignals(from: string, to: string): Promise<{ status: number; body: SignalsResponse }> {
  const { GET } = await import("@/app/api/v1/signals/route");
  const res = await (GET as unknown as Handler)(
    new Request(`http://localhost/api/v1/signals?from=${from}&to=${to}`, { headers: { authorization: `Bearer ${token}` } }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, body: await res.json() };
}

const levelOn = (s: SignalsResponse, day: string) => {
  const e = s.days.find((d) => d.day === day)?.signals.find((x) => x.kind === "early_warning");
  return e?.kind === "early_warning" ? e : undefined;
};

beforeAll(async () => {
  const { db } = await import("@/lib/test/prisma");
  await db.user.create({ data: { id: USER, email: "signals@example.test", role: "owner" } });
  ntfy = await startNtfyReceiver();
  const { createApiToken } = await import("@/lib/services/api-tokens");
  token = (await createApiToken(USER, { name: "signals", kinds: DATA_KINDS })).token;
});

afterAll(async () => {
  await ntfy?.close();
});

describe("a planted episode, imported", () => {
  it("is stored by Ringside's own import, every document accepted", async () => {
    const r = await importHistory();
    expect(r.status).toBe(200);
    expect(r.body.rejected).toBe(0);
    expect(r.body.documents.sleep).toBeGreaterThan(100);
    expect(r.body.documents.daily_readiness).toBe(100);
  });

  it("GET /api/v1/signals: likely on the three nights, none on the steady nights before", async () => {
    const from = addDays(LAST, -45);
    const r = await readSignals(from, LAST);
    expect(r.status).toBe(200);
    expect(r.body.kinds).toEqual(["early_warning", "sleep_debt", "regularity", "training_load"]);
    expect(history.episode).toEqual(["2026-04-08", "2026-04-09", "2026-04-10"]);
    for (const day of history.episode) {
      const e = levelOn(r.body, day)!;
      expect({ day, level: e.level, flags: e.flags }).toEqual({ day, level: "likely", flags: 4 });
      expect(e.markers.every((m) => m.flagged)).toBe(true);
    }
    for (const day of dayRange(from, addDays(history.episode[0]!, -1))) expect({ day, level: levelOn(r.body, day)?.level }).toEqual({ day, level: "none" });
    // which markers moved, by how much, against which baseline
    const first = levelOn(r.body, "2026-04-08")!;
    expect(first.inputs.resting_heart_rate! - first.baseline.resting_heart_rate!.median).toBeGreaterThanOrEqual(6);
    expect(first.baseline.temperature_deviation).toMatchObject({ nights: 58 });
    expect(first.markers.find((m) => m.marker === "hrv")!.delta).toBeLessThan(-0.25);
    // the other signals have their numbers too
    const day = r.body.days.at(-1)!;
    const debt = day.signals.find((s) => s.kind === "sleep_debt");
    const load = day.signals.find((s) => s.kind === "training_load");
    const reg = day.signals.find((s) => s.kind === "regularity");
    expect(debt?.kind === "sleep_debt" && debt.value !== null && debt.baseline.needSource).toBe("estimated");
    expect(load?.kind === "training_load" && load.value).toBeGreaterThan(0.5);
    expect(reg?.kind === "regularity" && reg.value).toBeGreaterThan(80);
    // Trends' "Sleep debt" metric is the same number, in seconds
    const { GET } = await import("@/app/api/v1/metrics/[metric]/route");
    const series = await (
      await (GET as unknown as Handler)(
        new Request(`http://localhost/api/v1/metrics/signals.sleep_debt?from=${from}&to=${LAST}`, { headers: { authorization: `Bearer ${token}` } }),
        { params: Promise.resolve({ metric: "signals.sleep_debt" }) },
      )
    ).json();
    expect(series.value.map((v: number | null) => (v === null ? null : Math.round(v / 36) / 100))).toEqual(
      r.body.days.map((d) => d.signals.find((x) => x.kind === "sleep_debt")).map((x) => (x?.kind === "sleep_debt" ? x.value : undefined)),
    );
    // the normal range rides on the physiology series: HRV's 7-day mean is below it by the third night
    const hrv = await (
      await (GET as unknown as Handler)(
        new Request(`http://localhost/api/v1/metrics/night.average_hrv?from=${from}&to=${LAST}`, { headers: { authorization: `Bearer ${token}` } }),
        { params: Promise.resolve({ metric: "night.average_hrv" }) },
      )
    ).json();
    expect(hrv.normal.state.at(-1)).toBe("below");
    expect(hrv.normal.state.at(-4)).toBe("within");
  });

  it("the early_warning alert is delivered once through the configured channel", async () => {
    const service = await import("@/lib/services/alerts");
    const clock = new ManualClock(Date.parse(`${LAST}T09:00:00Z`));
    const worker = service.createAlertWorker({ clock, evaluateEveryMs: 0 });
    await service.saveAlertSettings(USER, { includeValues: true, timeZone: "Pacific/Kiritimati" }, "https://ringside.test");
    await service.addAlertChannel(USER, { kind: "ntfy", url: ntfy.topicUrl("signals-topic") });
    await service.addAlertRule(USER, { kind: "early_warning", params: { level: "likely" } });
    const ours = () => ntfy.messages.filter((m) => m.topic === "signals-topic");
    await worker.tick();
    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.title).toBe("Early warning: your body may be fighting something");
    expect(ours()[0]!.message).toContain("This is not a diagnosis.");
    expect(ours()[0]!.message).toMatch(/Resting heart rate \+\d bpm/);
    // the worker looks again, and the same data comes in again (a re-sync, a second import): still one
    clock.advance(10 * 60_000);
    await worker.tick();
    expect((await importHistory()).status).toBe(200);
    worker.markSynced(USER);
    clock.advance(10 * 60_000);
    await worker.tick();
    expect(ours()).toHaveLength(1);
  });

  it("exports the signals as a derived file; the import refuses it (it never needs one)", async () => {
    const { GET } = await import("@/app/api/export/route");
    const res = await (GET as unknown as Handler)(new Request(`http://localhost/api/export?collection=signals&format=json&from=2026-04-01&to=${LAST}`), {
      params: Promise.resolve({}),
    });
    expect(res.status).toBe(200);
    const file = (await res.json()) as { format: string; derived: boolean; days: SignalsResponse["days"] };
    expect(file).toMatchObject({ format: "ringside-signals-v1", derived: true });
    expect(file.days.map((d) => d.day)).toEqual(dayRange("2026-04-01", LAST));
    expect(file.days).toEqual((await readSignals("2026-04-01", LAST)).body.days);
    const csv = await (
      await (GET as unknown as Handler)(new Request(`http://localhost/api/export?collection=signals&format=csv&from=${LAST}&to=${LAST}`), {
        params: Promise.resolve({}),
      })
    ).text();
    expect(csv.split("\n")[0]).toBe("day,kind,level,value,unit,status");
    expect(csv).toContain(`${LAST},early_warning,likely,4,flags,ok`);
    const { POST } = await import("@/app/api/import/route");
    const refused = await (POST as unknown as Handler)(
      new Request("http://localhost/api/import", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost" },
        body: JSON.stringify(file),
      }),
      { params: Promise.resolve({}) },
    );
    expect(refused.status).toBe(422);
  });
});
