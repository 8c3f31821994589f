// The emulator as a framework-agnostic `(req: Request) => Promise<Response>`: routing, fault
// injection, the request log. server.ts serves it over node:http.
import { realClock, type EmulatorClock } from "./clock";
import type { EmulatorConfig } from "./config";
import { newRequestMeta, type EmulatorContext, type RequestMeta } from "./context";
import { handleControl } from "./control";
import { CursorCodec, handleDataRoute } from "./data-routes";
import { dropConnection, json, problem } from "./errors";
import { handleAuthorize, handleRevoke, handleToken } from "./oauth";
import { TwoTierRateLimiter, rateLimitHeaders } from "./rate-limit";
import { EmulatorState, type Fault } from "./store";
import { WebhookEngine, handleWebhookRoute } from "./webhooks";
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
};

export type EmulatorOptions = {
  /** Time and webhook timers (tests inject a ManualClock). */
  clock?: EmulatorClock;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isDataPath(path: string): boolean {
  return path.startsWith("/v2/usercollection/") || path.startsWith("/v2/sandbox/usercollection/");
}

function kindForPath(path: string): RequestMeta["kind"] {
  if (path.startsWith("/v2/sandbox/usercollection/")) return "sandbox";
  if (path.startsWith("/v2/usercollection/")) return "data";
  if (path === "/oauth/token") return "token";
  if (path === "/oauth/revoke") return "revoke";
  if (path === "/oauth/authorize" || path === "/authorize") return "authorize";
  if (path.startsWith("/v2/webhook/")) return "webhook_subscription";
  return null;
}

function faultResponse(ctx: EmulatorContext, fault: Fault): Response {
  if (fault.status === 0) return dropConnection();
  const status = fault.status!;
  if (status === 429) {
    const retryAfterS = fault.retryAfter ?? 1;
    return problem(429, `Rate limit exceeded (${fault.tier} limit).`, rateLimitHeaders({
      tier: fault.tier,
      limit: fault.tier === "token" ? ctx.config.rateLimit : ctx.config.appRateLimit,
      windowS: ctx.config.rateWindowS,
      retryAfterS,
      resetEpochS: Math.ceil(ctx.now() / 1000) + retryAfterS,
    }));
  }
  const headers: Record<string, string> = fault.retryAfter !== null ? { "retry-after": String(fault.retryAfter) } : {};
  if (status === 401) headers["www-authenticate"] = 'Bearer realm="ring", error="invalid_token"';
  return problem(status, `Injected fault: ${status}.`, headers);
}

export function createEmulator(config: EmulatorConfig, opts: EmulatorOptions = {}): Emulator {
  const clock = opts.clock ?? realClock();
  const now = clock.now;
  const state = new EmulatorState(config, now);
  const limiter = new TwoTierRateLimiter({ tokenLimit: config.rateLimit, appLimit: config.appRateLimit, windowS: config.rateWindowS });
  const webhooks = new WebhookEngine(config, state, clock);
  const ctx: EmulatorContext = { config, state, limiter, webhooks, now };
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
        return faultResponse(ctx, fault);
      }
    }

    if (path === "/oauth/authorize" || path === "/authorize") return handleAuthorize(ctx, req, url, meta);
    if (path === "/oauth/token") return handleToken(ctx, req, meta);
    if (path === "/oauth/revoke") return handleRevoke(ctx, req, url, meta);
    if (isDataPath(path)) return handleDataRoute(ctx, { cursors }, req, url, meta);
    if (path.startsWith("/v2/webhook/")) return handleWebhookRoute(ctx, req, url, meta);
    if (path === "/" && req.method === "GET")
      return json({ service: "ring service emulator", authorize: "/oauth/authorize", token: "/oauth/token", control: "/_emulator/health" });
    return json({ detail: "Not Found" }, 404);
  }

  async function handle(req: Request): Promise<Response> {
    const started = now();
    const meta = newRequestMeta();
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
  };
}
