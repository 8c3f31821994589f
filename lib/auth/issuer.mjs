// @ts-check
// Reading the newer identity provider's discovery document (RING_OAUTH_ISSUER). Plain JS so
// that the production entry (lib/server/start.mjs) can check it before the server starts, and
// the app (lib/auth/ring-oauth.ts) reads it the same way. Every failure is a DiscoveryError
// whose message names RING_OAUTH_ISSUER and says what to check.
import { z } from "zod";

export const NEWER_PROVIDER_ISSUER = "https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous";
/** Bound on the document's size: a discovery document is a few kB. */
const MAX_BYTES = 256 * 1024;

export class DiscoveryError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "DiscoveryError";
  }
}

const endpoint = z.string().refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), { message: "must be an http(s) URL" });

/** The fields Ringside uses; everything else in the document is ignored. */
export const discoverySchema = z.looseObject({
  issuer: z.string().min(1),
  authorization_endpoint: endpoint,
  token_endpoint: endpoint,
  revocation_endpoint: endpoint.optional(),
  scopes_supported: z.array(z.string().max(200)).max(500).optional(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});

/** @typedef {z.infer<typeof discoverySchema>} DiscoveryDocument */

/** @param {string} issuer */
export function discoveryUrl(issuer) {
  return `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
}

/**
 * @param {string} issuer
 * @param {string} reason
 */
function fail(issuer, reason) {
  return new DiscoveryError(
    `RING_OAUTH_ISSUER=${issuer}: ${reason} Ringside reads the identity provider's discovery document (${discoveryUrl(issuer)}) ` +
      `at start and takes every OAuth address from it. Check the value: apps registered in the newer developer portal use ` +
      `${NEWER_PROVIDER_ISSUER}; leave RING_OAUTH_ISSUER unset for apps from the older portal.`,
  );
}

/**
 * Fetches and validates the discovery document of `issuer` (no trailing slash). The document's
 * `issuer` must equal it exactly (RFC 8414 §3.3), and it must name the authorization and token
 * endpoints.
 * @param {string} issuer
 * @param {{ timeoutMs?: number, fetch?: typeof fetch }} [opts]
 * @returns {Promise<DiscoveryDocument>}
 */
export async function readDiscovery(issuer, opts = {}) {
  const doFetch = opts.fetch ?? fetch;
  /** @type {Response} */
  let res;
  try {
    res = await doFetch(discoveryUrl(issuer), {
      headers: { accept: "application/json" },
      redirect: "error",
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
      cache: "no-store",
    });
  } catch (e) {
    const name = e instanceof Error ? (e.name === "TimeoutError" ? "it did not answer in time" : e.message) : String(e);
    throw fail(issuer, `the discovery document could not be fetched (${name}).`);
  }
  if (!res.ok) {
    await res.arrayBuffer().catch(() => undefined);
    throw fail(issuer, `the discovery document answered HTTP ${res.status}.`);
  }
  const text = await readCapped(res);
  if (text === null) throw fail(issuer, `the discovery document is larger than ${MAX_BYTES} bytes.`);
  /** @type {unknown} */
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw fail(issuer, "the discovery document is not JSON.");
  }
  const parsed = discoverySchema.safeParse(body);
  if (!parsed.success) {
    const what = parsed.error.issues
      .slice(0, 4)
      .map((i) => `${i.path.join(".") || "(document)"} ${i.message}`)
      .join("; ");
    throw fail(issuer, `the discovery document is missing what Ringside needs (${what}).`);
  }
  if (parsed.data.issuer !== issuer)
    throw fail(issuer, `the discovery document names another issuer (${parsed.data.issuer.slice(0, 200)}); the two must be identical.`);
  return parsed.data;
}

/**
 * The body as text, or null when it exceeds the cap (read as a stream, never all at once).
 * @param {Response} res
 */
async function readCapped(res) {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
