import "server-only";
import { cookies } from "next/headers";
import { AppError } from "@/lib/http/errors";
import { auth } from "@/lib/services/auth";
import { SESSION_COOKIES } from "@/lib/auth/callback-route";

export type SessionUser = { id: string; email: string | null; role: "owner" | "member" };

/**
 * The signed-in person, or an AppError(unauthorized). This is the only way routes, actions and
 * server components get a user id: nothing ever takes a user id from the request.
 */
export async function requireUser(): Promise<SessionUser> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) throw new AppError("unauthorized", "Sign in first.");
  return { id, email: session.user.email ?? null, role: session.user.role === "owner" ? "owner" : "member" };
}

/** Like requireUser, and the person must own this Ringside (AppError forbidden otherwise). */
export async function requireOwner(): Promise<SessionUser> {
  const user = await requireUser();
  if (user.role !== "owner") throw new AppError("forbidden", "Only the owner of this Ringside can do that.");
  return user;
}

/** The signed-in person or null (for pages that render differently when signed out). */
export async function currentUser(): Promise<SessionUser | null> {
  try {
    return await requireUser();
  } catch (err) {
    if (err instanceof AppError && err.code === "unauthorized") return null;
    throw err;
  }
}

/** The browser's session token (to keep it while ending the person's other sessions). */
export async function currentSessionToken(): Promise<string | null> {
  const jar = await cookies();
  return SESSION_COOKIES.map((n) => jar.get(n)?.value).find(Boolean) ?? null;
}
