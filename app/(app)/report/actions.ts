"use server";

import { clock } from "@/lib/clock";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/http/errors";
import { formDataArg, isActionError, runAction, settingsRowAction } from "@/lib/api/action";
import type { CreateReportLinkState } from "@/lib/api/contract";
import { createReportLinkInputSchema } from "@/lib/schemas/report-links";
import { requireUser } from "@/lib/services/auth/session";
import { createReportLink, reportLinkUrl, revokeReportLinkOf } from "@/lib/services/report-links";
import { publicOrigin } from "@/lib/auth/origin";

/**
 * Server actions of report share links: created from the report page (its query, an expiry of
 * 1 to 90 days, a label), revoked from Settings. Each gets the person from requireUser(); an id
 * in the form only ever selects among the person's own links. Refusals come back as the error
 * envelope.
 */

/** Creates a share link of the report the page shows; the link is in the answer, once. */
export async function createReportLinkAction(_prev: CreateReportLinkState, form: FormData): Promise<CreateReportLinkState> {
  const r = await runAction(
    async () => {
      const user = await requireUser();
      const f = formDataArg(form);
      const parsed = createReportLinkInputSchema.safeParse({
        query: f.get("query") ?? "",
        expiresDays: f.get("expiresDays") ?? "",
        label: f.get("label") ?? "",
      });
      if (!parsed.success) throw new AppError("unprocessable_entity", parsed.error.issues.map((i) => i.message).join("; "));
      const { secret, summary } = await createReportLink(user.id, parsed.data);
      revalidatePath("/settings", "layout");
      return { link: reportLinkUrl(await publicOrigin(), secret), label: summary.label, expiresAt: summary.expiresAt };
    },
    { signInWhenSignedOut: true },
  );
  return isActionError(r) ? { error: r.error, at: clock.now() } : { ...r, at: clock.now() };
}

/** Revokes one of the person's share links: it answers 410 from the next view on. */
export const revokeReportLinkAction = settingsRowAction(requireUser, "id", (user, id) => revokeReportLinkOf(user.id, id));
