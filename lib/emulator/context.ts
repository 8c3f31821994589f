// What every route handler receives: settings, state, the rate limiter, the webhook engine,
// the clock, and a per-request record filled in for the request log.
import type { EmulatorConfig } from "./config";
import type { Portal } from "./providers";
import type { TwoTierRateLimiter, RateTier } from "./rate-limit";
import type { EmulatorState, RequestLogEntry } from "./store";
import type { WebhookEngine } from "./webhooks";

export type EmulatorContext = {
  config: EmulatorConfig;
  state: EmulatorState;
  limiter: TwoTierRateLimiter;
  webhooks: WebhookEngine;
  now: () => number;
  /**
   * The origin the emulator advertises (discovery, issuer): the server's own URL once it
   * listens, else the origin of the request.
   */
  origin: (url: URL) => string;
};

/** Filled in by handlers; turned into a RequestLogEntry when the response is ready. */
export type RequestMeta = {
  kind: RequestLogEntry["kind"] | null;
  provider: Portal | null;
  clientId: string | null;
  userId: string | null;
  grantType: string | null;
  tokenFingerprint: string | null;
  rateLimitTier: RateTier | null;
  fault: boolean;
  /** when the request arrived (the emulator's clock): its log entry's time */
  at: number;
};

export function newRequestMeta(at: number): RequestMeta {
  return { kind: null, provider: null, clientId: null, userId: null, grantType: null, tokenFingerprint: null, rateLimitTier: null, fault: false, at };
}
