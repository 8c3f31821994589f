"use server";

import { cookies, headers } from "next/headers";
import { signInWithRing } from "@/lib/services/auth";
import { servedOverHttps } from "@/lib/auth/origin";
import { normalizeSetupCode, SETUP_CODE_COOKIE, SETUP_CODE_COOKIE_MAX_AGE_S } from "@/lib/auth/setup-code";

/**
 * Starts "Connect your ring" (authorization-code flow with PKCE and state) and lands on the
 * dashboard. A setup code typed on the sign-in page (the first connect of an instance without
 * an owner) travels through the ring's consent in an httpOnly cookie; anything else in the
 * arguments is ignored.
 */
export async function connectRing(form?: unknown): Promise<void> {
  if (form instanceof FormData && form.has("setupCode")) {
    const code = normalizeSetupCode(form.get("setupCode"));
    const jar = await cookies();
    if (code) {
      const secure = servedOverHttps({ url: "http://ringside/", headers: await headers() });
      jar.set(SETUP_CODE_COOKIE, code, { httpOnly: true, sameSite: "lax", path: "/", maxAge: SETUP_CODE_COOKIE_MAX_AGE_S, secure });
    } else {
      jar.delete(SETUP_CODE_COOKIE);
    }
  }
  await signInWithRing("/");
}
