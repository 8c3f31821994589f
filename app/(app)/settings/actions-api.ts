"use server";

import { clock } from "@/lib/clock";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/http/errors";
import { formDataArg, isActionError, runAction, settingsRowAction } from "@/lib/api/action";
import { createApiTokenInputSchema } from "@/lib/schemas/requests";
import type { CreateApiTokenState } from "@/lib/api/contract";
import { requireUser } from "@/lib/services/auth/session";
import { createApiToken, revokeApiToken } from "@/lib/services/api-tokens";

/**
 * Server actions of Settings → API. Each gets the person from requireUser(); an id in the form
 * only ever selects among the person's own tokens. Refusals come back as the error envelope.
 */

/** Creates a token with the name and data kinds of the form; the token is in the answer, once. */
export async function createApiTokenAction(_prev: CreateApiTokenState, form: FormData): Promise<CreateApiTokenState> {
  const r = await runAction(
    async () => {
      const user = await requireUser();
      const f = formDataArg(form);
      const parsed = createApiTokenInputSchema.safeParse({ name: f.get("name") ?? "", kinds: f.getAll("kinds"), expires: f.get("expires") ?? undefined });
      if (!parsed.success) throw new AppError("unprocessable_entity", parsed.error.issues.map((i) => i.message).join("; "));
      const input = parsed.data;
      const { token, summary } = await createApiToken(user.id, input);
      revalidatePath("/settings", "layout");
      return { token, name: summary.name };
    },
    { signInWhenSignedOut: true },
  );
  return isActionError(r) ? { error: r.error, at: clock.now() } : { ...r, at: clock.now() };
}

/** Revokes one of the person's tokens: it answers 401 from the next request on. */
export const revokeApiTokenAction = settingsRowAction(requireUser, "id", (user, id) => revokeApiToken(user.id, id));
