import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { openApiDocument, schemaNames, validateResponse, validateSchema } from "@/lib/emulator/openapi";

// Payloads from spec/ring-api-facts.md §9 (shapes observed from the real service).
const STRESS_LIST = {
  data: [
    { id: "ec98c864-34a7-4eab-bc5d-cf01be18b74b", day: "2024-11-11", stress_high: 1800, recovery_high: 7200, day_summary: "normal" },
    { id: "dba37165-c029-448f-b4a6-316a37ad5750", day: "2024-11-12", stress_high: 1800, recovery_high: 9900, day_summary: "restored" },
  ],
  next_token: null,
};
const RESILIENCE = {
  id: "b17f152f-8887-4195-b51f-7f44ab5d8d3f",
  day: "2024-11-11",
  contributors: { sleep_recovery: 46.2, daytime_recovery: 49.3, stress: 34.5 },
  level: "adequate",
};
const SPO2 = { id: "b1c660f4-551f-4c9f-80a3-16e809d118d8", day: "2024-11-11", spo2_percentage: { average: 98.072 }, breathing_disturbance_index: 15 };
const READINESS = {
  id: "93b2a8ec-ccdb-49bf-84f5-d06a77873f25",
  contributors: {
    activity_balance: 94,
    body_temperature: 97,
    hrv_balance: 95,
    previous_day_activity: 91,
    previous_night: 77,
    recovery_index: 64,
    resting_heart_rate: 92,
    sleep_balance: 92,
    sleep_regularity: null,
  },
  day: "2024-11-11",
  score: 86,
  temperature_deviation: 0.1,
  temperature_trend_deviation: 0.13,
  timestamp: "2024-11-11T00:00:00+00:00",
};
const SUBSCRIPTION = {
  id: "5d3fe17b-f880-4d93-b9b6-afbfb76c1e78",
  callback_url: "https://example.test/oura",
  event_type: "update",
  data_type: "daily_readiness",
  expiration_time: "2026-12-01T00:00:00+00:00",
};
const VALIDATION_ERROR = { detail: [{ type: "value_error", loc: ["query", "start_date"], msg: "bad", input: "2025-11-11" }] };

describe("validateSchema", () => {
  it("accepts the observed real payloads", () => {
    expect(validateSchema("MultiDocumentResponse_PublicDailyStress_", STRESS_LIST)).toEqual({ ok: true });
    expect(validateSchema("DailyResilienceModel", RESILIENCE)).toEqual({ ok: true });
    expect(validateSchema("PublicDailySpO2", SPO2)).toEqual({ ok: true });
    expect(validateSchema("PublicDailyReadiness", READINESS)).toEqual({ ok: true });
    expect(validateSchema("WebhookSubscriptionModel", SUBSCRIPTION)).toEqual({ ok: true });
    expect(validateSchema("HTTPValidationError", VALIDATION_ERROR)).toEqual({ ok: true });
    expect(validateSchema("PersonalInfoResponse", { id: "x", age: null, weight: null, height: null, biological_sex: null, email: null })).toEqual({
      ok: true,
    });
    expect(validateSchema("PublicDailyCardiovascularAge", { id: "a", day: "2024-11-12", vascular_age: 35, pulse_wave_velocity: null })).toEqual({
      ok: true,
    });
  });

  it("rejects wrong types, missing required keys and values outside an enum, saying where", () => {
    const bad = validateSchema("PublicDailyReadiness", { ...READINESS, score: "high" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.join("\n")).toMatch(/\/score/);

    const level = validateSchema("DailyResilienceModel", { ...RESILIENCE, level: "great" });
    expect(level.ok).toBe(false);
    if (!level.ok) expect(level.errors.join("\n")).toMatch(/\/level .*exceptional/);

    const { id: _id, ...noId } = SPO2;
    const missing = validateSchema("PublicDailySpO2", noId);
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.errors.join("\n")).toMatch(/required.*id|id.*required|'id'/);

    // Real Dec-2024 cardiovascular-age documents had no id; the 1.37 schema requires one.
    expect(validateSchema("PublicDailyCardiovascularAge", { day: "2024-11-12", vascular_age: 35 }).ok).toBe(false);

    expect(validateSchema("MultiDocumentResponse_PublicDailyStress_", { data: STRESS_LIST.data }).ok).toBe(false);
    expect(validateSchema("PublicSample", { interval: 60, items: [1, null, "x"], timestamp: "t" }).ok).toBe(false);
  });

  it("checks the declared formats (uuid4, date-time, date)", () => {
    expect(validateSchema("WebhookSubscriptionModel", { ...SUBSCRIPTION, id: "not-a-uuid" }).ok).toBe(false);
    expect(validateSchema("WebhookSubscriptionModel", { ...SUBSCRIPTION, expiration_time: "next tuesday" }).ok).toBe(false);
    expect(validateSchema("DailyResilienceModel", { ...RESILIENCE, day: "2024-13-45" }).ok).toBe(false);
  });

  it("reports an unknown schema name as a failure, and lists the known names", () => {
    const r = validateSchema("NoSuchModel", {});
    expect(r).toEqual({ ok: false, errors: ["unknown schema: NoSuchModel"] });
    expect(schemaNames()).toContain("PublicModifiedSleepModel");
  });

  it("loads the repository copy of the OpenAPI 3.1 document with every daily collection route, and the unpublished routes beside it", () => {
    type Doc = { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    const copy = JSON.parse(readFileSync(new URL("./openapi-1.37.json", import.meta.url), "utf8")) as Doc;
    const extra = JSON.parse(readFileSync(new URL("./openapi-unpublished.json", import.meta.url), "utf8")) as Doc;
    // what the published document leaves out is added, never put in place of what it says
    for (const p of Object.keys(extra.paths)) expect(copy.paths[p], p).toBeUndefined();
    for (const s of Object.keys(extra.components.schemas)) expect(copy.components.schemas[s], s).toBeUndefined();
    expect(openApiDocument()).toEqual({
      ...copy,
      paths: { ...copy.paths, ...extra.paths },
      components: { ...copy.components, schemas: { ...copy.components.schemas, ...extra.components.schemas } },
    });
    expect(Object.keys(extra.paths)).toEqual([
      "/v2/usercollection/daily_cycle_phases",
      "/v2/usercollection/daily_cycle_phases/{document_id}",
      "/v2/sandbox/usercollection/daily_cycle_phases",
      "/v2/sandbox/usercollection/daily_cycle_phases/{document_id}",
    ]);
    expect(copy.openapi).toBe("3.1.0");
    for (const c of [
      "daily_activity",
      "daily_readiness",
      "daily_sleep",
      "daily_spo2",
      "daily_stress",
      "daily_resilience",
      "daily_cardiovascular_age",
      "sleep",
    ]) {
      expect(Object.keys(openApiDocument().paths)).toContain(`/v2/usercollection/${c}/{document_id}`);
    }
  });
});

describe("validateResponse", () => {
  it("list routes: the typed wrapper, or the generic Dict branch of the anyOf (a fields projection)", () => {
    expect(validateResponse("/v2/usercollection/daily_stress", "GET", 200, STRESS_LIST)).toEqual({ ok: true });
    expect(validateResponse("/v2/sandbox/usercollection/daily_stress", "get", 200, STRESS_LIST)).toEqual({ ok: true });
    const projected = { data: [{ id: "x", day: "2024-11-11" }], next_token: null };
    expect(validateResponse("/v2/usercollection/daily_readiness", "get", 200, projected)).toEqual({ ok: true });
    expect(validateResponse("/v2/usercollection/daily_readiness", "get", 200, projected, { typedOnly: true }).ok).toBe(false);
    // Neither branch: data is not an array.
    expect(validateResponse("/v2/usercollection/daily_stress", "get", 200, { data: {}, next_token: null }).ok).toBe(false);
    // A malformed document fails once the generic branch is excluded.
    const broken = { data: [{ ...STRESS_LIST.data[0], day_summary: "chill" }], next_token: null };
    const r = validateResponse("/v2/usercollection/daily_stress", "get", 200, broken, { typedOnly: true });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join("\n")).toMatch(/day_summary/);
  });

  it("single-document routes by template or by concrete path", () => {
    expect(validateResponse("/v2/usercollection/daily_resilience/{document_id}", "get", 200, RESILIENCE)).toEqual({ ok: true });
    expect(validateResponse(`/v2/usercollection/daily_resilience/${RESILIENCE.id}`, "get", 200, RESILIENCE)).toEqual({ ok: true });
    expect(validateResponse("/v2/usercollection/daily_spo2/abc?fields=day", "get", 200, SPO2)).toEqual({ ok: true });
    expect(validateResponse("/v2/usercollection/daily_resilience/{document_id}", "get", 200, SPO2).ok).toBe(false);
    expect(validateResponse("/v2/usercollection/personal_info", "get", 200, { id: "u" })).toEqual({ ok: true });
  });

  it("errors and webhook routes", () => {
    expect(validateResponse("/v2/usercollection/daily_sleep", "get", 422, VALIDATION_ERROR)).toEqual({ ok: true });
    expect(validateResponse("/v2/usercollection/daily_sleep", "get", 422, { detail: "nope" }).ok).toBe(false);
    // Documented statuses without a JSON schema accept any body.
    for (const status of [400, 401, 403, 429]) {
      expect(validateResponse("/v2/usercollection/daily_sleep", "get", status, { detail: "x" })).toEqual({ ok: true });
    }
    expect(validateResponse("/v2/webhook/subscription", "get", 200, [SUBSCRIPTION])).toEqual({ ok: true });
    expect(validateResponse("/v2/webhook/subscription", "get", 200, { data: [SUBSCRIPTION] }).ok).toBe(false);
    expect(validateResponse("/v2/webhook/subscription", "post", 201, SUBSCRIPTION)).toEqual({ ok: true });
    expect(validateResponse("/v2/webhook/subscription/renew/{id}", "put", 200, SUBSCRIPTION)).toEqual({ ok: true });
    expect(validateResponse("/v2/webhook/subscription/{id}", "put", 200, { ...SUBSCRIPTION, event_type: "rename" }).ok).toBe(false);
  });

  it("unknown paths, methods and undocumented statuses fail with a reason", () => {
    const path = validateResponse("/v2/usercollection/nothing", "get", 200, {});
    expect(path.ok).toBe(false);
    if (!path.ok) expect(path.errors[0]).toMatch(/no such path/);
    const method = validateResponse("/v2/usercollection/daily_sleep", "post", 200, {});
    expect(method.ok).toBe(false);
    if (!method.ok) expect(method.errors[0]).toMatch(/no operation POST/);
    const status = validateResponse("/v2/usercollection/daily_sleep", "get", 418, {});
    expect(status.ok).toBe(false);
    if (!status.ok) expect(status.errors[0]).toMatch(/418 is not documented/);
  });
});
