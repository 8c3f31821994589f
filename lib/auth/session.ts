import "server-only";
import { AppError } from "@/lib/api/errors";
import { auth } from "@/lib/auth";

export type SessionUser = { id: string; email: string | null };

/** The signed-in person, or an AppError(unauthorized). Every data route and action calls it. */
export async function requireUser(): Promise<SessionUser> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) throw new AppError("unauthorized", "Sign in first.");
  return { id, email: session.user.email ?? null };
}
