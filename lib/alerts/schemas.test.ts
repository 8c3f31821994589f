import { describe, expect, it } from "vitest";
import { alertChannelInputSchema, alertSettingsInputSchema, firstIssue } from "@/lib/alerts/schemas";
import { alertRuleInputSchema } from "@/lib/alerts/kinds";

const channelError = (input: unknown) => {
  const r = alertChannelInputSchema.safeParse(input);
  return r.success ? null : firstIssue(r.error);
};

describe("channel input", () => {
  it("takes http(s) topic and webhook URLs", () => {
    expect(alertChannelInputSchema.parse({ kind: "ntfy", url: " https://ntfy.sh/my-topic ", token: "" })).toEqual({
      kind: "ntfy",
      url: "https://ntfy.sh/my-topic",
      label: undefined,
      token: undefined,
    });
    expect(alertChannelInputSchema.parse({ kind: "webhook", url: "http://192.168.1.10:8123/api/webhook/ringside-abc", label: "Home Assistant" })).toMatchObject(
      { label: "Home Assistant" },
    );
    expect(alertChannelInputSchema.parse({ kind: "email", recipient: "me@example.org" })).toMatchObject({ recipient: "me@example.org" });
  });

  it("refuses other schemes, credentials in the URL, fragments, overlong input and bad topics", () => {
    expect(channelError({ kind: "webhook", url: "file:///etc/passwd" })).toBe("Only http and https addresses can be used.");
    expect(channelError({ kind: "webhook", url: "javascript:alert(1)" })).toBe("Only http and https addresses can be used.");
    expect(channelError({ kind: "webhook", url: "not a url" })).toMatch(/full address/);
    expect(channelError({ kind: "webhook", url: "https://user:pw@example.org/x" })).toMatch(/user name and password/);
    expect(channelError({ kind: "webhook", url: "https://example.org/x#y" })).toMatch(/fragment/);
    expect(channelError({ kind: "webhook", url: `https://example.org/${"a".repeat(2100)}` })).toMatch(/at most 2048/);
    expect(channelError({ kind: "ntfy", url: "https://ntfy.sh/" })).toMatch(/end with the topic/);
    expect(channelError({ kind: "ntfy", url: "https://ntfy.sh/topic", token: "has space" })).toMatch(/no spaces/);
    expect(channelError({ kind: "ntfy", url: "https://ntfy.sh/topic", token: "t".repeat(600) })).toMatch(/too long/);
    expect(channelError({ kind: "email", recipient: "nope" })).toBe("Enter an e-mail address.");
    expect(channelError({ kind: "sms", url: "https://x.org/a" })).not.toBeNull();
    expect(channelError({ kind: "webhook", url: "https://x.org/a", label: "x".repeat(61) })).toMatch(/at most 60/);
  });
});

describe("rule input", () => {
  it("bounds each parameter", () => {
    expect(alertRuleInputSchema.parse({ kind: "metric_out_of_range", params: { metric: "readiness.score", side: "below", days: "3" } })).toEqual({
      kind: "metric_out_of_range",
      params: { metric: "readiness.score", side: "below", days: 3 },
    });
    const bad = (input: unknown) => {
      const r = alertRuleInputSchema.safeParse(input);
      return r.success ? null : firstIssue(r.error);
    };
    expect(bad({ kind: "metric_out_of_range", params: { metric: "stress.day_summary", side: "below", days: 3 } })).toBe("Choose a metric with numbers.");
    expect(bad({ kind: "metric_out_of_range", params: { metric: "nope", side: "below", days: 3 } })).toBe("Choose a metric with numbers.");
    expect(bad({ kind: "metric_out_of_range", params: { metric: "readiness.score", side: "below", days: 15 } })).toBe("Days in a row must be at most 14.");
    expect(bad({ kind: "no_new_sleep", params: { days: 1 } })).toBe("Days without a new night must be at least 2.");
    expect(bad({ kind: "connection", params: { hours: 169 } })).toBe("Hours of failing sync must be at most 168.");
    expect(bad({ kind: "weekly_digest", params: { weekday: 0, hour: 8 } })).toBe("Weekday must be at least 1.");
    expect(bad({ kind: "weekly_digest", params: { weekday: 1, hour: 24 } })).toBe("Hour must be at most 23.");
    expect(bad({ kind: "weekly_digest", params: { weekday: 1, hour: 2.5 } })).toBe("Hour must be a whole number.");
    expect(alertRuleInputSchema.parse({ kind: "ring_battery_low", params: { level: "20" } })).toEqual({ kind: "ring_battery_low", params: { level: 20 } });
    expect(bad({ kind: "ring_battery_low", params: { level: 51 } })).toBe("Battery level must be at most 50.");
    expect(bad({ kind: "ring_battery_low", params: {} })).toBe("Battery level must be a number.");
    expect(bad({ kind: "ring_charged", params: { level: 49 } })).toBe("Charged level must be at least 50.");
    expect(alertRuleInputSchema.parse({ kind: "bedtime_window", params: { extra: 1 } })).toEqual({ kind: "bedtime_window", params: {} });
  });
});

describe("settings input", () => {
  it("needs a real time zone", () => {
    expect(alertSettingsInputSchema.parse({ includeValues: true, timeZone: "Europe/Berlin" })).toEqual({
      includeValues: true,
      timeZone: "Europe/Berlin",
      quietHours: null,
    });
    expect(alertSettingsInputSchema.safeParse({ includeValues: false, timeZone: "Mars/Olympus" }).success).toBe(false);
    expect(alertSettingsInputSchema.safeParse({ includeValues: false, timeZone: "x".repeat(65) }).success).toBe(false);
  });
});

describe("quiet hours", () => {
  const parse = (quietFrom?: string, quietTo?: string) => alertSettingsInputSchema.safeParse({ includeValues: false, timeZone: "UTC", quietFrom, quietTo });
  it("are both ends as a time field gives them, or neither", () => {
    expect(parse("22:30", "07:00").data?.quietHours).toEqual({ from: 22 * 60 + 30, to: 7 * 60 });
    expect(parse("13:00:00", "14:15").data?.quietHours).toEqual({ from: 13 * 60, to: 14 * 60 + 15 });
    expect(parse("", "").data?.quietHours).toBeNull();
    expect(parse().data?.quietHours).toBeNull();
  });
  it("refuse one end alone, an empty span and what is not a time", () => {
    const error = (a?: string, b?: string) => {
      const r = parse(a, b);
      return r.success ? null : firstIssue(r.error);
    };
    expect(error("22:00", "")).toBe("Give both ends of the quiet hours, or neither.");
    expect(error("", "07:00")).toBe("Give both ends of the quiet hours, or neither.");
    expect(error("07:00", "07:00")).toBe("Quiet hours end at another time than they start.");
    expect(error("24:00", "07:00")).toBe("Enter a time such as 22:00.");
    expect(error("7pm", "07:00")).toBe("Enter a time such as 22:00.");
    expect(error("22:00".repeat(50), "07:00")).not.toBeNull();
  });
});
