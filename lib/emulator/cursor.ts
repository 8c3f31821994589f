// The data routes' next_token: the position of a page in a listing, as an opaque token signed with
// a key of the emulator's process (a token from another run, or altered, is refused with 400).
import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from "node:crypto";

export type Family = "user" | "sandbox";

export type Cursor = {
  v: 1;
  f: Family;
  c: string;
  u: string;
  s: string;
  e: string;
  /** Window as instants (workouts, sessions, time series). */
  si?: number;
  ei?: number;
  a: string;
  p: string | null;
};

export class CursorCodec {
  private readonly key = createSecretKey(randomBytes(32)); // prepared once, not per signature

  encode(cursor: Omit<Cursor, "v">): string {
    const payload = Buffer.from(JSON.stringify({ v: 1, ...cursor })).toString("base64url");
    return `${payload}.${this.sign(payload)}`;
  }

  decode(token: string): Cursor | null {
    const dot = token.lastIndexOf(".");
    if (dot <= 0) return null;
    const payload = token.slice(0, dot);
    const sig = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.sign(payload), "base64url");
    if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) return null;
    try {
      const parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Cursor;
      return parsed.v === 1 ? parsed : null;
    } catch {
      return null;
    }
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.key).update(payload).digest().subarray(0, 16).toString("base64url");
  }
}
