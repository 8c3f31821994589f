import "server-only";
import type { Sender } from "@/lib/alerts/channels/types";

// E-mail through the instance's mail server (SMTP_* in the environment, lib/env.mjs) with
// nodemailer; the recipient is each person's own. Plain text only, no attachments, no remote
// content (file and URL access are off in nodemailer), bounded connection times.

export type SmtpConfig = {
  host: string;
  port: number;
  secure: "tls" | "starttls" | "none";
  user?: string;
  password?: string;
  from: string;
};

/** nodemailer's error codes that will not go away by trying again. */
const PERMANENT_CODES = new Set(["EAUTH", "EENVELOPE", "EMESSAGE", "ETLS", "EREQUIRETLS"]);

function describe(err: unknown): { retry: boolean; error: string } {
  const e = err as { code?: string; responseCode?: number; response?: string };
  if (e?.code === "EAUTH") return { retry: false, error: "the mail server refused SMTP_USER / SMTP_PASSWORD" };
  if (typeof e?.responseCode === "number") {
    // 4xx: try later; 5xx: refused for good
    const reply = (e.response ?? "").replace(/[^\x20-\x7e]/g, "").slice(0, 160);
    return { retry: e.responseCode < 500, error: `the mail server answered ${e.responseCode}${reply ? `: ${reply}` : ""}` };
  }
  switch (e?.code) {
    case "ETLS":
    case "EREQUIRETLS":
      return { retry: false, error: "the mail server's TLS did not work (check SMTP_SECURE and SMTP_PORT)" };
    case "ETIMEDOUT":
      return { retry: true, error: "the mail server did not answer in time" };
    case "ECONNECTION":
    case "ESOCKET":
    case "EDNS":
      return { retry: true, error: "the mail server could not be reached" };
    default:
      return { retry: !PERMANENT_CODES.has(e?.code ?? ""), error: `sending failed${e?.code ? ` (${e.code})` : ""}` };
  }
}

export function createEmailSender(config: SmtpConfig | null): Sender {
  return async (target, message, signal) => {
    if (target.kind !== "email") throw new Error("not an e-mail channel");
    if (!config) return { ok: false, retry: false, error: "e-mail is not set up on this Ringside (SMTP_HOST and SMTP_FROM)" };
    // loaded with the first e-mail: most servers never send one, and need not hold its code
    const { default: nodemailer } = await import("nodemailer");
    const transport = nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: config.secure === "tls",
      requireTLS: config.secure === "starttls",
      ignoreTLS: config.secure === "none",
      auth: config.user ? { user: config.user, pass: config.password ?? "" } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
      disableFileAccess: true,
      disableUrlAccess: true,
      logger: false,
      debug: false,
    });
    try {
      await transport.sendMail({
        from: config.from,
        to: target.recipient,
        subject: message.title,
        text: message.body,
        headers: { "X-Ringside-Event": message.id },
        signal,
      });
      return { ok: true };
    } catch (err) {
      return { ok: false, ...describe(err) };
    } finally {
      transport.close();
    }
  };
}
