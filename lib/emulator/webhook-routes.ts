// The webhook subscription routes (/v2/webhook/subscription*): x-client-id/x-client-secret
// auth, the synchronous verification handshake (the engine's, webhooks.ts), create, list, read,
// update, renew and delete.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { EmulatorContext, RequestMeta } from "./context";
import { isoWithOffset } from "./date-params";
import { empty, json, problem, toValidationIssues, validationError } from "./errors";
import type { Client, WebhookSubscription } from "./store";
import { WEBHOOK_DATA_TYPES, WEBHOOK_EVENT_TYPES } from "./webhooks";

function toModel(sub: WebhookSubscription) {
  return {
    id: sub.id,
    callback_url: sub.callbackUrl,
    event_type: sub.eventType,
    data_type: sub.dataType,
    expiration_time: isoWithOffset(sub.expiresAt),
  };
}

const callbackUrl = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}, "Input should be a valid http or https URL");

const createSchema = z.object({
  callback_url: callbackUrl,
  verification_token: z.string(),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  data_type: z.enum(WEBHOOK_DATA_TYPES),
});

const updateSchema = z.object({
  verification_token: z.string(),
  callback_url: callbackUrl.nullish(),
  event_type: z.enum(WEBHOOK_EVENT_TYPES).nullish(),
  data_type: z.enum(WEBHOOK_DATA_TYPES).nullish(),
});

async function readJsonBody(req: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const text = await req.text();
  if (text.trim() === "") return { ok: false, response: validationError([{ loc: ["body"], msg: "Field required", type: "missing" }]) };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return {
      ok: false,
      response: validationError([{ loc: ["body"], msg: `JSON decode error: ${e instanceof Error ? e.message : "invalid JSON"}`, type: "json_invalid" }]),
    };
  }
}

function authenticate(ctx: EmulatorContext, req: Request): Client | null {
  const id = req.headers.get("x-client-id");
  const secret = req.headers.get("x-client-secret");
  if (!id || !secret) return null;
  return ctx.state.authenticateClient(id, secret) ?? null;
}

const NOT_FOUND = "Webhook with specified id does not exist.";

export async function handleWebhookRoute(ctx: EmulatorContext, req: Request, url: URL, meta: RequestMeta): Promise<Response> {
  meta.kind = "webhook_subscription";
  const parts = url.pathname.split("/").filter(Boolean); // v2, webhook, subscription, [renew], [id]
  const tail = parts.slice(3);
  let route: "collection" | "item" | "renew" | null = null;
  let id: string | undefined;
  if (parts[2] !== "subscription") route = null;
  else if (tail.length === 0) route = "collection";
  else if (tail.length === 1) [route, id] = ["item", tail[0]];
  else if (tail.length === 2 && tail[0] === "renew") [route, id] = ["renew", tail[1]];
  if (!route) return json({ detail: "Not Found" }, 404);
  const allowed = route === "collection" ? ["GET", "POST"] : route === "item" ? ["GET", "PUT", "DELETE"] : ["PUT"];
  if (!allowed.includes(req.method)) return json({ detail: "Method Not Allowed" }, 405, { allow: allowed.join(", ") });

  const client = authenticate(ctx, req);
  if (!client) return problem(401, "Invalid or missing x-client-id / x-client-secret.");
  meta.clientId = client.clientId;
  const now = ctx.now();

  if (route === "collection" && req.method === "GET") {
    const subs = [...ctx.state.subscriptions.values()].filter((s) => s.clientId === client.clientId).sort((a, b) => a.createdAt - b.createdAt);
    return json(subs.map(toModel));
  }
  if (route === "collection") {
    const body = await readJsonBody(req);
    if (!body.ok) return body.response;
    const parsed = createSchema.safeParse(body.value);
    if (!parsed.success) return validationError(toValidationIssues(parsed.error, "body"));
    const input = parsed.data;
    const duplicate = [...ctx.state.subscriptions.values()].find(
      (s) => s.clientId === client.clientId && s.eventType === input.event_type && s.dataType === input.data_type,
    );
    if (duplicate)
      return problem(409, `A subscription for event_type "${input.event_type}" and data_type "${input.data_type}" already exists (${duplicate.id}).`);
    const verified = await ctx.webhooks.verify(input.callback_url, input.verification_token);
    if (!verified.ok) return problem(400, `Callback verification failed: ${verified.reason}.`);
    const sub: WebhookSubscription = {
      id: randomUUID(),
      clientId: client.clientId,
      callbackUrl: input.callback_url,
      verificationToken: input.verification_token,
      eventType: input.event_type,
      dataType: input.data_type,
      expiresAt: ctx.now() + ctx.config.subscriptionTtlS * 1000,
      createdAt: now,
    };
    ctx.state.subscriptions.set(sub.id, sub);
    return json(toModel(sub), 201);
  }

  const sub = id ? ctx.state.subscriptions.get(id) : undefined;
  if (!sub || sub.clientId !== client.clientId) return problem(403, NOT_FOUND);

  if (route === "renew") {
    sub.expiresAt = now + ctx.config.subscriptionTtlS * 1000;
    return json(toModel(sub));
  }
  if (req.method === "GET") return json(toModel(sub));
  if (req.method === "DELETE") {
    ctx.state.subscriptions.delete(sub.id);
    return empty(204);
  }
  // PUT: update
  const body = await readJsonBody(req);
  if (!body.ok) return body.response;
  const parsed = updateSchema.safeParse(body.value);
  if (!parsed.success) return validationError(toValidationIssues(parsed.error, "body"));
  const input = parsed.data;
  const eventType = input.event_type ?? sub.eventType;
  const dataType = input.data_type ?? sub.dataType;
  const clash = [...ctx.state.subscriptions.values()].find(
    (s) => s.id !== sub.id && s.clientId === client.clientId && s.eventType === eventType && s.dataType === dataType,
  );
  if (clash) return problem(409, `A subscription for event_type "${eventType}" and data_type "${dataType}" already exists (${clash.id}).`);
  const newUrl = input.callback_url ?? sub.callbackUrl;
  if (newUrl !== sub.callbackUrl) {
    const verified = await ctx.webhooks.verify(newUrl, input.verification_token);
    if (!verified.ok) return problem(400, `Callback verification failed: ${verified.reason}.`);
  }
  // Re-read: the subscription may have been deleted while the handshake ran.
  if (!ctx.state.subscriptions.has(sub.id)) return problem(403, NOT_FOUND);
  sub.callbackUrl = newUrl;
  sub.eventType = eventType;
  sub.dataType = dataType;
  sub.verificationToken = input.verification_token;
  return json(toModel(sub));
}
