import { clock } from "@/lib/clock";
import { NextResponse, type NextRequest } from "next/server";
import { findUsableInvite, INVITE_COOKIE, INVITE_COOKIE_MAX_AGE_S } from "@/lib/auth/invites";
import { publicOrigin } from "@/lib/auth/origin";

export const dynamic = "force-dynamic";

// GET /invite/:secret – an owner's invite link: remembers it in an httpOnly cookie (only this
// browser's next Connect uses it) and continues to "Connect your ring"; an unusable link ends
// on the error page.
export async function GET(req: NextRequest, ctx: { params: Promise<{ secret: string }> }) {
  const { secret } = await ctx.params;
  const origin = await publicOrigin();
  const invite = await findUsableInvite(secret);
  if (!invite) return NextResponse.redirect(new URL("/sign-in/error?error=invite_invalid", origin), 303);
  const res = NextResponse.redirect(new URL("/sign-in?invite=1", origin), 303);
  res.cookies.set(INVITE_COOKIE, secret, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: new URL(origin).protocol === "https:" || req.nextUrl.protocol === "https:",
    maxAge: Math.min(INVITE_COOKIE_MAX_AGE_S, Math.floor((invite.expiresAt.getTime() - clock.now()) / 1000)),
  });
  res.headers.set("cache-control", "no-store");
  res.headers.set("referrer-policy", "no-referrer");
  return res;
}
