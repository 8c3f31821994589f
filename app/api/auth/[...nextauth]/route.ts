import { handlers } from "@/lib/services/auth";
import { withRingCallback } from "@/lib/auth/callback-route";

// GET /api/auth/* – Auth.js (sign-in, callback, session); the ring callback is wrapped so that
// every failure ends on the friendly error page with its precise reason.
export const GET = withRingCallback(handlers.GET);
// POST /api/auth/* – Auth.js (sign-in, sign-out)
export const POST = handlers.POST;
