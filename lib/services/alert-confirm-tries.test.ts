// Confirmation codes: the wrong tries a code allows are taken atomically (the import issue's
// finding: the 5-try limit was read, then incremented after an await, so guesses sent in
// parallel all passed the check and could exceed it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { sqlRun, sqlValue } from "@/lib/test/sql";
import { startSmtpReceiver, type SmtpReceiver } from "@/lib/test/alert-receivers";

const clock = new ManualClock(Date.parse("2026-11-23T10:00:00Z"));
let service: typeof import("@/lib/services/alerts");
let smtp: SmtpReceiver;

beforeAll(async () => {
  setClock(clock);
  smtp = await startSmtpReceiver();
  Object.assign(process.env, { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_SECURE: "none", SMTP_FROM: "Ringside <alerts@ringside.test>" });
  service = await import("@/lib/services/alerts");
});

afterAll(async () => {
  setClock(undefined);
  await smtp?.close();
});

describe("a confirmation code's tries", () => {
  it("guesses sent all at once get no more tries than the limit, and the right code after them is refused", async () => {
    const now = new Date(clock.now()).toISOString();
    await sqlRun(
      `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES ('tries', 'tries@example.test', 'member', 'metric', 'system', ?, ?)`,
      now,
      now,
    );
    const { id: channelId } = await service.addAlertChannel("tries", { kind: "email", recipient: "tries@example.test" });
    const code = /\b(\d{6})\b/.exec(smtp.mails.find((m) => m.to.includes("tries@example.test"))!.text)![1]!;
    const wrong = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"));
    const answers = await Promise.all(wrong.map((w) => service.confirmAlertChannel("tries", channelId, w).catch((e: Error) => e.message)));
    const judged = answers.filter((a) => a === "That is not the code sent to this address.");
    expect(judged).toHaveLength(service.CONFIRM_CODE_MAX_TRIES);
    expect(answers.filter((a) => a === "Too many wrong codes: send a new one.")).toHaveLength(20 - service.CONFIRM_CODE_MAX_TRIES);
    expect(Number(await sqlValue(`SELECT confirmAttempts FROM alert_channel WHERE id = ?`, channelId))).toBe(service.CONFIRM_CODE_MAX_TRIES);
    await expect(service.confirmAlertChannel("tries", channelId, code)).rejects.toMatchObject({ message: "Too many wrong codes: send a new one." });
  });
});
