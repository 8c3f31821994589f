import { toErrorResponse } from "@/lib/http/errors";
import { wakeScheduler } from "@/lib/sync/scheduler";
import { answerWebhookVerification, receiveWebhook } from "@/lib/sync/webhooks";

export const dynamic = "force-dynamic";

// GET /api/webhooks/ring – subscription handshake: {challenge} for our verification token only
export async function GET(req: Request): Promise<Response> {
  try {
    return answerWebhookVerification(req);
  } catch (err) {
    return toErrorResponse(err);
  }
}

// POST /api/webhooks/ring – signed notification: verified, recorded once, answered at once
export async function POST(req: Request): Promise<Response> {
  try {
    return await receiveWebhook(req, { onRecorded: wakeScheduler });
  } catch (err) {
    return toErrorResponse(err);
  }
}
