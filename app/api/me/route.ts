import { withUser } from "@/lib/api/handler";
import { missingCollections, normalizeScopes } from "@/lib/auth/scopes";
import { findRingAccountByUserId } from "@/lib/db/queries/accounts";

export const dynamic = "force-dynamic";

// GET /api/me – the signed-in person: id, role, ring account, granted scopes and what is not shared (never a token)
export const GET = withUser(async ({ user }) => {
  const account = await findRingAccountByUserId(user.id);
  const scopes = normalizeScopes(account?.scope ?? "");
  return Response.json(
    {
      id: user.id,
      role: user.role,
      email: user.email,
      ringUserId: account?.ringUserId ?? null,
      status: account?.status ?? null,
      scopes,
      notShared: missingCollections(scopes),
      expiresAt: account?.expiresAt ?? null,
    },
    { headers: { "cache-control": "no-store" } },
  );
});
