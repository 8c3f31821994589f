// The emulator as a framework-agnostic `(req: Request) => Promise<Response>`: routing, fault
// injection, the request log. server.ts serves it over node:http.
import { parsePinnedClock } from "../clock";
import { realClock, type EmulatorClock } from "./clock";
import type { EmulatorConfig } from "./config";
import { newRequestMeta, type EmulatorContext, type RequestMeta } from "./context";
import { handleControl } from "./control";
import { CursorCodec } from "./cursor";
import { handleDataRoute } from "./data-routes";
import { dropConnection, json, problem } from "./errors";
import { handleAuthorize } from "./oauth";
import { handleDeveloperRevoke, handleDiscovery, handleIntrospect, handleRevoke, handleToken } from "./oauth-token";
import { DEVELOPER_PATHS, LEGACY_PATHS } from "./providers";
import { TwoTierRateLimiter, rateLimitHeaders } from "./rate-limit";
import { EmulatorState, type Fault } from "./store";
import { handleWebhookRoute } from "./webhook-routes";
import { WebhookEngine } from "./webhooks";
import { logger } from "@/lib/log";

export type Emulator = {
  config: EmulatorConfig;
  state: EmulatorState;
  clock: EmulatorClock;
  /** Resolves when no webhook delivery attempt is under way. */
  settled(): Promise<void>;
  handle(req: Request): Promise<Response>;
  /** Empty state, demo client re-registered, scheduled webhooks cancelled. */
  reset(): void;
  /** Cancels timers and in-flight deliveries. */
  close(): void;
  /** The origin to advertise (issuer, discovery): set by the server once it listens. */
  setOrigin(origin: string): void;
};

export type EmulatorOptions = {
  /** Time and webhook timers (tests inject a ManualClock). */
  clock?: EmulatorClock;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isDataPath(path: string): boolean {
  return path.startsWith("/v2/usercollection/") || path.startsWith("/v2/sandbox/usercollection/");
}

function isLegacyAuthorize(path: string): boolean {
  return (LEGACY_PATHS.authorize as readonly string[]).includes(path);
}

function isDiscoveryPath(path: string): boolean {
  return path === DEVELOPER_PATHS.discovery || path === DEVELOPER_PATHS.discoveryRfc8414;
}

function kindForPath(path: string): RequestMeta["kind"] {
  if (path.startsWith("/v2/sandbox/usercollection/")) return "sandbox";
  if (path.startsWith("/v2/usercollection/")) return "data";
  if (path === LEGACY_PATHS.token || path === DEVELOPER_PATHS.token) return "token";
  if (path === LEGACY_PATHS.revoke || path === DEVELOPER_PATHS.revoke) return "revoke";
  if (isLegacyAuthorize(path) || path === DEVELOPER_PATHS.authorize) return "authorize";
  if (path === DEVELOPER_PATHS.introspect) return "introspect";
  if (isDiscoveryPath(path)) return "discovery";
  if (path.startsWith("/v2/webhook/")) return "webhook_subscription";
  return null;
}

/** An injected fault's answer; a 429's reset counts from `at`, the request's arrival, the instant its log entry carries. */
function faultResponse(ctx: EmulatorContext, fault: Fault, at: number): Response {
  if (fault.status === 0) return dropConnection();
  const status = fault.status!;
  if (status === 429) {
    const retryAfterS = fault.retryAfter ?? 1;
    return problem(
      429,
      `Rate limit exceeded (${fault.tier} limit).`,
      rateLimitHeaders({
        tier: fault.tier,
        limit: fault.tier === "token" ? ctx.config.rateLimit : ctx.config.appRateLimit,
        windowS: ctx.config.rateWindowS,
        retryAfterS,
        resetEpochS: Math.ceil(at / 1000) + retryAfterS,
      }),
    );
  }
  const headers: Record<string, string> = fault.retryAfter !== null ? { "retry-after": String(fault.retryAfter) } : {};
  if (status === 401) headers["www-authenticate"] = 'Bearer realm="ring", error="invalid_token"';
  return problem(status, `Injected fault: ${status}.`, headers);
}

export function createEmulator(config: EmulatorConfig, opts: EmulatorOptions = {}): Emulator {
  const clock = opts.clock ?? realClock(parsePinnedClock(config.now, "RING_EMULATOR_NOW") ?? 0);
  const now = clock.now;
  const state = new EmulatorState(config, now);
  const limiter = new TwoTierRateLimiter({ tokenLimit: config.rateLimit, appLimit: config.appRateLimit, windowS: config.rateWindowS });
  const webhooks = new WebhookEngine(config, state, clock);
  let advertised: string | null = null;
  const ctx: EmulatorContext = { config, state, limiter, webhooks, now, origin: (url) => advertised ?? url.origin };
  const cursors = new CursorCodec();

  const reset = () => {
    webhooks.cancelAll();
    limiter.reset();
    state.reset();
  };

  async function route(req: Request, url: URL, meta: RequestMeta): Promise<Response> {
    const path = url.pathname;
    if (path === "/_emulator" || path.startsWith("/_emulator/")) return handleControl(ctx, req, url, reset);

    const fault = state.takeFault(path, isDataPath(path));
    if (fault) {
      meta.fault = true;
      if (fault.delayMs > 0) await sleep(fault.delayMs);
      if (fault.status !== null) {
        meta.kind = kindForPath(path);
        return faultResponse(ctx, fault, meta.at);
      }
    }

    if (isLegacyAuthorize(path)) return handleAuthorize(ctx, req, url, meta, "legacy");
    if (path === LEGACY_PATHS.token) return handleToken(ctx, req, meta, "legacy");
    if (path === LEGACY_PATHS.revoke) return handleRevoke(ctx, req, url, meta);
    if (isDiscoveryPath(path)) return handleDiscovery(ctx, req, url, meta);
    if (path === DEVELOPER_PATHS.authorize) return handleAuthorize(ctx, req, url, meta, "developer");
    if (path === DEVELOPER_PATHS.token) return handleToken(ctx, req, meta, "developer");
    if (path === DEVELOPER_PATHS.revoke) return handleDeveloperRevoke(ctx, req, meta);
    if (path === DEVELOPER_PATHS.introspect) return handleIntrospect(ctx, req, url, meta);
    if (isDataPath(path)) return handleDataRoute(ctx, { cursors }, req, url, meta);
    if (path.startsWith("/v2/webhook/")) return handleWebhookRoute(ctx, req, url, meta);
    if (path === "/" && req.method === "GET")
      return json({
        service: "ring service emulator",
        authorize: LEGACY_PATHS.authorize[0],
        token: LEGACY_PATHS.token,
        developer_discovery: DEVELOPER_PATHS.discovery,
        control: "/_emulator/health",
      });
    return json({ detail: "Not Found" }, 404);
  }

  async function handle(req: Request): Promise<Response> {
    const started = now();
    const meta = newRequestMeta(started);
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return problem(400, "Malformed request URL.");
    }
    let res: Response;
    try {
      res = await route(req, url, meta);
    } catch (e) {
      logger.error({ path: url.pathname, err: e instanceof Error ? e.message : String(e) }, "emulator route failed");
      res = problem(500, "Internal emulator error.");
    }
    if (meta.kind) {
      state.logRequest({
        time: new Date(started).toISOString(),
        method: req.method,
        path: url.pathname,
        status: res.status === 599 ? 0 : res.status,
        kind: meta.kind,
        provider: meta.provider,
        rate_limit_tier: meta.rateLimitTier,
        token_fingerprint: meta.tokenFingerprint,
        client_id: meta.clientId,
        user_id: meta.userId,
        grant_type: meta.grantType,
        fault: meta.fault,
        duration_ms: now() - started,
      });
    }
    logger.debug({ method: req.method, path: url.pathname, status: res.status, ms: now() - started }, "emulator request");
    return res;
  }

  return {
    config,
    state,
    clock,
    settled: () => webhooks.settled(),
    handle,
    reset,
    close: () => webhooks.close(),
    setOrigin: (origin) => {
      advertised = origin.replace(/\/+$/, "");
    },
  };
}
