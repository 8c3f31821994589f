import "server-only";
import { createEmailSender, type SmtpConfig } from "@/lib/alerts/channels/email";
import { sendNtfy } from "@/lib/alerts/channels/ntfy";
import { createWebhookSender } from "@/lib/alerts/channels/webhook";
import type { Senders } from "@/lib/alerts/channels/types";

export type { SendResult, Senders } from "@/lib/alerts/channels/types";

/** The three channel senders, configured (the e-mail one with the instance's mail server). */
export function createSenders(opts: { smtp: SmtpConfig | null; now?: () => number }): Senders {
  return { ntfy: sendNtfy, email: createEmailSender(opts.smtp), webhook: createWebhookSender(opts.now) };
}
