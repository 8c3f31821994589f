import "server-only";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Conditional requests of the chart and data routes (GET only). An answer about a person is a
// function of the release, the person, the person's data version (lib/db/queries/data-version.ts:
// moved by every sync, import, note, tag, preference and delete) and the request's path and
// query. Its ETag is a digest of exactly those, so it is known before anything is read: a
// repeat request with a matching If-None-Match is answered 304 before any query or statistic.
// The answers stay private to the browser and must be revalidated every time (no-cache).

/**
 * The release: next build's id, and this process's start (a restart forgets nothing it must
 * keep, and `next dev`'s code changes never meet an old tag). A new build never answers 304
 * to an old one's tag.
 */
function readReleaseId(): string {
  let build = "dev";
  try {
    build = fs.readFileSync(path.join(process.cwd(), ".next/BUILD_ID"), "utf8").trim() || build;
  } catch {
    /* not a build: next dev, tests */
  }
  return `${build}:${randomBytes(6).toString("hex")}`;
}

let releaseId: string | null = null;
function release(): string {
  return (releaseId ??= readReleaseId());
}

/**
 * What an answer's tag is made of. `url` is the request's path and query; `scope`, whatever
 * else shapes the answer for the same person (a token's data kinds).
 */
export type EtagInput = { release: string; userId: string; version: number; url: string; scope?: string };

/** A weak ETag (gzip may re-encode the body) naming one answer: `W/"<version>-<digest>"`. */
export function answerEtag(input: EtagInput): string {
  const digest = createHash("sha256")
    .update(`${input.release}\n${input.userId}\n${input.version}\n${input.url}\n${input.scope ?? ""}`)
    .digest("base64url")
    .slice(0, 22);
  return `W/"${input.version}-${digest}"`;
}

/** The request's path and query, as the tag covers them. */
export function tagUrl(req: Request): string {
  const u = new URL(req.url);
  return `${u.pathname}${u.search}`;
}

/** The tag of this request's answer for a person at a data version (this release). */
export function etagFor(req: Request, userId: string, version: number, scope?: string): string {
  return answerEtag({ release: release(), userId, version, url: tagUrl(req), scope });
}

/**
 * Whether an If-None-Match header names `etag` among its comma-separated tags, compared weakly
 * (RFC 9110 §13.1.2: W/ is ignored on both sides). Only a tag this server gave for this very
 * request matches: `*` does not (a bad query must get its 4xx, not a 304). Bounded: a header
 * longer than 4 kB matches nothing.
 */
export function ifNoneMatchMatches(header: string | null, etag: string): boolean {
  if (!header || header.length > 4096) return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, "");
  const want = opaque(etag);
  return header.split(",").some((t) => opaque(t) === want);
}

/** The headers every conditional answer carries (200 and 304 alike). */
export function conditionalHeaders(etag: string): Record<string, string> {
  return { etag, "cache-control": "private, no-cache", vary: "Cookie, Authorization" };
}

/** 304 Not Modified with the tag and caching headers (no body). */
export function notModified(etag: string): Response {
  return new Response(null, { status: 304, headers: conditionalHeaders(etag) });
}

/** Marks a 200 answer with its tag (other statuses are left alone: errors are never cached). */
export function tagAnswer(res: Response, etag: string): Response {
  if (res.status !== 200) return res;
  for (const [k, v] of Object.entries(conditionalHeaders(etag))) res.headers.set(k, v);
  return res;
}
