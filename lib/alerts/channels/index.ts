import "server-only";
import { createEmailSender, type SmtpConfig } from "@/lib/alerts/channels/email";
import { createNtfySender } from "@/lib/alerts/channels/ntfy";
import { addressPolicy } from "@/lib/alerts/channels/address";
import { createWebhookSender } from "@/lib/alerts/channels/webhook";
import type { Senders } from "@/lib/alerts/channels/types";

export type { SendResult, Senders } from "@/lib/alerts/channels/types";

/**
 * The three channel senders, configured: the e-mail one with the instance's mail server, the
 * HTTP ones with the private hosts the owner allows (ALERT_ALLOWED_PRIVATE_HOSTS).
 */
export function createSenders(opts: { smtp: SmtpConfig | null; now?: () => number; allowedPrivateHosts?: readonly string[] }): Senders {
  const policy = addressPolicy(opts.allowedPrivateHosts);
  return { ntfy: createNtfySender(policy), email: createEmailSender(opts.smtp), webhook: createWebhookSender(opts.now, policy) };
}
